// Shared fuzz step: expand and build every network of a parsed model at batch 1, then again after the
// inference passes (errors are fine).
#pragma once
#include "nn/ir/model.hpp"

namespace nn::fuzz {
void build_all(const ir::Model& model);
}
