// Function arguments between ir attributes (by name, nn::OpSchema order) and NNB records (by argcode).
#pragma once
#include <string>
#include <vector>

#include "formats/nnb/nnb_file.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::formats::nnb {

// Encodes `attrs` of a `type` function for a level's argcode; trailing arguments the argcode lacks are
// dropped (logged). Throws (kUnsupported) when the argument types do not match the argcode.
std::vector<NnbArgument> encode_arguments(const std::string& type, const std::string& argcode,
                                          const Attrs& attrs, int level);
// The names of decoded arguments (schema order, as many as `args`), and the attributes they make.
std::vector<std::string> argument_names(const std::string& type, size_t count);
Attrs decode_arguments(const std::string& type, const std::vector<NnbArgument>& args);
// Allowed values of a string argument (index = encoded value); empty when the argument is free text.
const std::vector<std::string>& string_choices(const std::string& type, const std::string& arg);

}  // namespace nn::formats::nnb
