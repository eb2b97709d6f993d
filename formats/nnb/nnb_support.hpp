// Functions an NNB for nnabla-c-runtime can hold at an API level (function_info -f NNB, convert -c).
#pragma once
#include <string>
#include <vector>

namespace nn::formats::nnb {

// Sorted names of the functions nnabla-c-runtime implements that the function table of `api_level`
// (-1 or beyond the newest: the newest) can export.
std::vector<std::string> nnb_supported_functions(int api_level);

}  // namespace nn::formats::nnb
