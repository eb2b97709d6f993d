// The executor and network an exporter writes: -E picks the executor, else the model's only one.
#pragma once
#include <string>

#include "nn/ir/model.hpp"

namespace nn::formats {

struct ExportTarget {
  const ir::Executor* executor = nullptr;
  const ir::Network* network = nullptr;
};

// Throws kUnsupported when no executor is named and the model has several (or none), kInvalid when the
// named executor or its network does not exist.
ExportTarget export_target(const ir::Model& model, const std::string& executor_name);

}  // namespace nn::formats
