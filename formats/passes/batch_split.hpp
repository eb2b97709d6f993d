// Batch split: whether an inference network treats axis 0 of its data as independent samples everywhere, and
// the same network for a smaller batch, so that sub-batches can run side by side (runtime/session/batch_split).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats {

struct BatchSplitQuery {
  const ir::Network* network = nullptr;                  // batch already set (formats::set_batch_size): no -1 dims
  const std::map<std::string, Shape>* shapes = nullptr;  // every variable's shape as built at `batch`
  std::vector<std::string> inputs, outputs;              // the data variables fed per sample and the outputs read
  int64_t batch = 0;
};

// The network at `sub_batch` when every function between the inputs and the outputs is known to compute each
// sample from that sample alone (convolutions, pooling, element-wise functions with per-channel constants,
// reshapes that keep axis 0, ...); nullopt with *why_not naming the first function or variable that does not.
std::optional<ir::Network> rebatch_for_split(const BatchSplitQuery& query, int64_t sub_batch,
                                             std::string* why_not);

}  // namespace nn::formats
