// parameter.h5: one float32 dataset per parameter (name = dataset path), need_grad + index attributes.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats::nnp {

// Called with each parameter's name and stored shape before its data is read; throws to refuse it (a
// shape the network contradicts is refused before a compressed dataset is inflated).
using ParameterShapeCheck = std::function<void(const std::string& name, const Shape& shape)>;

// Reads every dataset, sorted by (index attribute, path); any numeric dtype becomes float32.
std::vector<ir::Parameter> read_h5_parameters(std::string_view bytes, const std::string& display_name,
                                              const ParameterShapeCheck& check = {});
std::vector<ir::Parameter> read_h5_parameters_file(const std::string& path, const ParameterShapeCheck& check = {});

// HDF5 bytes as upstream's Python writer makes them (need_grad as an h5py bool enum, index int64).
std::string h5_parameters_image(const std::vector<ir::Parameter>& parameters);

}  // namespace nn::formats::nnp
