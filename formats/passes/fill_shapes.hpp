// Shape pass: gives the variables an old file left without a shape the shapes the built graph computes.
#pragma once
#include "nn/ir/model.hpp"

namespace nn::formats {

// When some Buffer variable of `network` (batch already set) has no shape, builds it with the model's
// parameters and copies the computed shapes into those variables. Leaves the network as it was when it
// cannot be built (the caller's own check then names the variable).
void fill_missing_shapes(const ir::Model& model, ir::Network& network);

}  // namespace nn::formats
