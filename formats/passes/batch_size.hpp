// Batch-size pass: replaces the -1 (batch) dims of variable shapes with a concrete batch size.
#pragma once
#include <cstdint>

#include "nn/ir/model.hpp"

namespace nn::formats {

// override_batch_size > 0 wins; otherwise the network's batch_size. Throws nn::Error naming the network
// when neither is positive.
int64_t effective_batch_size(const ir::Network& network, int64_t override_batch_size = 0);

// A copy of the network with every -1 dim replaced and batch_size set to the effective value.
ir::Network set_batch_size(const ir::Network& network, int64_t override_batch_size = 0);
// The same for every network of the model.
void set_batch_size(ir::Model& model, int64_t override_batch_size = 0);

}  // namespace nn::formats
