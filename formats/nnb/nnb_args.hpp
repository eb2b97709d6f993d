// Function arguments between ir attributes (by name, nn::OpSchema order) and NNB records (by argcode).
#pragma once
#include <string>
#include <vector>

#include "formats/nnb/nnb_file.hpp"
#include "nn/ops/attributes.hpp"
#include "nn/ops/op_schema.hpp"

namespace nn::formats::nnb {

// nnabla's argument code of one argument type: "i" (int64, string), "f" (float, double), "B", "iI" (Shape,
// repeated int64), "fF" (repeated float), "C" (Communicator).
std::string argument_code(AttrType type);
// The argument codes of a function's current definition, e.g. "iiIiIiIiB" for Convolution ("" without
// arguments; throws for a type without a schema). uniq names and NNB export both use it.
std::string argument_codes(const std::string& type);

// Encodes `attrs` of a `type` function for a level's argcode; trailing arguments the argcode lacks are
// dropped (logged). Throws (kUnsupported) when the argument types do not match the argcode.
std::vector<NnbArgument> encode_arguments(const std::string& type, const std::string& argcode, const Attrs& attrs,
                                          int level);
// The names of decoded arguments (schema order, as many as `args`), and the attributes they make.
std::vector<std::string> argument_names(const std::string& type, size_t count);
Attrs decode_arguments(const std::string& type, const std::vector<NnbArgument>& args);
// Allowed values of a string argument (index = encoded value); empty when the argument is free text.
const std::vector<std::string>& string_choices(const std::string& type, const std::string& arg);

}  // namespace nn::formats::nnb
