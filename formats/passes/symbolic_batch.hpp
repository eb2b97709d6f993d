// Symbolic batch on import (ONNX symbolic dims, TFLite shape_signature -1): merges two imports (the batch traced
// as 1 and as 2) into one model whose batch-dependent dims are -1, so that `-b N` runs it at any batch size.
#pragma once
#include <string>

#include "nn/ir/model.hpp"

namespace nn::formats {

// `at_one` and `at_two` come from the same graph with every symbolic input dim set to 1 and to 2. Variable
// dims that are 1 vs 2 become -1, so do Reshape-like "shape" arguments; anything else that depends on the
// batch (a dim that folds it with other axes, a batch-sized constant) throws kUnsupported naming it.
// A refusal (kUnsupported) ends with "; " + `remedy`, which says how the user fixes the free dims.
ir::Model merge_symbolic_batch(ir::Model at_one, const ir::Model& at_two, const std::string& remedy);

}  // namespace nn::formats
