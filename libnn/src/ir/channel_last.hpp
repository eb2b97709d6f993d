// Channel-last Convolution and pooling at build time: the channel-first kernels between two Transposes.
#pragma once
#include <vector>

#include "ir/function_resolve.hpp"
#include "nn/core/context.hpp"
#include "nn/graph/variable.hpp"

namespace nn::ir {

// Convolution, MaxPooling, AveragePooling or SumPooling with channel_last=true (the CPU kernels are
// channel-first only).
bool lowers_channel_last(const FunctionSpec& spec);

// Connects `spec` over `inputs` as Transpose (channel axis to base_axis) -> the function with
// channel_last=false -> Transpose back. A Convolution's weight (OC, k..., C/group) goes through a Transpose to
// (OC, C/group, k...) too, so gradients reach the parameter as they are stored.
std::vector<VariablePtr> connect_channel_last(const FunctionSpec& spec, const std::vector<VariablePtr>& inputs,
                                              const nn::Context& context);

}  // namespace nn::ir
