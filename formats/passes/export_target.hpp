// The one path from a model to what a writer (or a run) works on: executor -> network -> batch size, and the
// one report of every function the target cannot take.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "nn/ir/model.hpp"

namespace nn::formats {

// What an empty executor name picks: the model's only executor (ONNX, TFLite: several or none is kUnsupported,
// "pick one with -E"), or its first one (NNB, CSRC, running a model).
enum class UnnamedExecutor { kOnly, kFirst };

// The executor called `name` (kInvalid listing the valid ones when there is none), or per `unnamed` for "".
const ir::Executor& select_executor(const ir::Model& model, const std::string& name, UnnamedExecutor unnamed);
// The network the executor runs (kInvalid naming both when the model does not define it).
const ir::Network& executor_network(const ir::Model& model, const ir::Executor& executor);

struct ExportTargetOptions {
  std::string format;  // "NNB", "ONNX", ...: names the target in log lines and messages
  std::string executor;
  UnnamedExecutor unnamed = UnnamedExecutor::kOnly;
  int64_t batch_size =
      1;  // < 1: the network's batch size (logged as "<format>: Using batch size from input file.")
  bool fill_shapes =
      true;  // false: variables an old file left without a shape stay so (NNB writes them as upstream)
};

struct ExportTarget {
  const ir::Executor* executor = nullptr;
  const ir::Network* source = nullptr;  // the network as the model holds it
  ir::Network network;                  // a copy with the batch size set (and missing shapes filled in)
};

ExportTarget export_target(const ir::Model& model, const ExportTargetOptions& options);

// Calls `convert` on every function of `network` in order; each nn::Error it throws is one problem. When there
// are any, throws kUnsupported naming them all in one line:
//   network 'main': 2 function(s) cannot be converted to NNB: function 'g' (Gather): <what>; function ...
void convert_each_function(const ir::Network& network, const std::string& format,
                           const std::function<void(const ir::Function&)>& convert);

}  // namespace nn::formats
