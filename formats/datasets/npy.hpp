// NPY arrays (numpy.save format 1.0/2.0/3.0): reading records from a byte stream and writing them.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nn/core/shape.hpp"

namespace nn::formats::datasets {

struct NpyArray {
  std::string descr;  // numpy dtype string such as "<f4", "|u1"
  Shape shape;
  std::vector<double> values;  // C order, converted from the stored dtype
};

// Reads one NPY record starting at offset and advances offset past it. display_name appears in errors.
NpyArray read_npy(std::string_view bytes, size_t& offset, const std::string& display_name);

// One NPY (version 1.0) record of float32 ("<f4"), float64 ("<f8"), uint8 ("|u1") or uint16 ("<u2").
std::string npy_record(const std::string& descr, const Shape& shape, const std::vector<double>& values);

}  // namespace nn::formats::datasets
