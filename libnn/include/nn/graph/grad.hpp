// nn::grad: the gradient of outputs w.r.t. inputs, built as a graph (so it can be differentiated again).
#pragma once
#include <vector>

#include "nn/graph/variable.hpp"

namespace nn {

// grad_outputs: seeds per output (null or absent = ones). Returns one variable per input; an input the
// outputs do not depend on gets zeros of its shape.
std::vector<VariablePtr> grad(const std::vector<VariablePtr>& outputs, const std::vector<VariablePtr>& inputs,
                              const std::vector<VariablePtr>& grad_outputs = {});

}  // namespace nn
