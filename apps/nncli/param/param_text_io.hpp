// Parameter text files of decode_param/encode_param: file names, Python-style float text, parsing.
#pragma once
#include <string>
#include <string_view>

#include "nn/ir/model.hpp"

namespace nncli {

// Parameter name -> file stem: percent-encode every byte except letters, digits, "_.-~", "/" and space
// (Python's quote(name, safe="/ ")), then "/" -> "~". "conv1/conv/W" -> "conv1~conv~W".
std::string param_file_stem(const std::string& name);
// File stem -> parameter name: "~" -> "/", then percent-decoding (upstream's unquote).
std::string param_name_from_stem(const std::string& stem);

// Python's repr() of a shape tuple: "(16, 1, 5, 5)", "(16,)", "()".
std::string python_shape_repr(const nn::Shape& shape);

// The text of one parameter file: shape tuple, then one value per line, no trailing newline.
std::string format_param_text(const nn::ir::Parameter& parameter);
// Parses a parameter file (display_name appears in errors as '<file>:<line>'); need_grad = true.
nn::ir::Parameter parse_param_text(std::string_view text, const std::string& name,
                                   const std::string& display_name);

}  // namespace nncli
