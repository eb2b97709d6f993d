// The function a file entry becomes at build time: batch dims in shape arguments, inference-mode rewrites.
#pragma once
#include <string>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/ir/model.hpp"

namespace nn::ir {

struct FunctionSpec {
  std::string type;
  Attrs attrs;
};

// Types that act only while training and are the identity at inference time (nnabla runtime semantics).
bool is_training_only_type(const std::string& type);

// Resolves f against its built inputs:
//  * Reshape: negative dims become the batch size; a shape lacking the batch dim gets it prepended
//    (Neural Network Console omits it); a single -1 that matches neither is left for Reshape to infer.
//  * Broadcast: negative dims become the batch size.
//  * training == false: training-only types become Identity, batch_stat arguments become false and
//    RNN-style `training` arguments false.
FunctionSpec resolve_function(const Function& f, const std::vector<VariablePtr>& inputs, int64_t batch_size,
                              bool training);

}  // namespace nn::ir
