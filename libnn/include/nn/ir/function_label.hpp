// How error text names a function of a network: function 'fc1' (Affine).
#pragma once
#include <cstddef>
#include <string>

#include "nn/ir/model.hpp"

namespace nn::ir {

constexpr size_t kNoIndex = static_cast<size_t>(-1);

// "function 'fc1' (Affine)"; an unnamed function given its position in the network is "function #3 (Affine)".
std::string label(const Function& f, size_t index = kNoIndex);

}  // namespace nn::ir
