// `dump -v`: every set field of the model's NNablaProtoBuf, in nnabla_cli's "NNP:a[0]:b: value" layout.
#pragma once
#include <string>

#include "nn/ir/model.hpp"

namespace nncli {

// Repeated fields are cut to [:limit] with Python slice semantics (the default -1 drops the last element).
std::string dump_proto_fields(const nn::ir::Model& model, const std::string& root, int limit);

}  // namespace nncli
