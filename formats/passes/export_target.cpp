// The executor and network an exporter writes (shared by the ONNX and TFLite writers).
#include "formats/passes/export_target.hpp"

#include "nn/core/error.hpp"

namespace nn::formats {

ExportTarget export_target(const ir::Model& model, const std::string& executor_name) {
  ExportTarget t;
  if (executor_name.empty()) {
    NN_CHECK_CODE(model.executors.size() == 1, ErrorCode::kUnsupported)
        << "NNP with only a single executor is currently supported (this one has " << model.executors.size()
        << "; pick one with -E)";
    t.executor = &model.executors[0];
  } else {
    t.executor = model.find_executor(executor_name);
    NN_CHECK(t.executor != nullptr) << "executor '" << executor_name << "' is not found in this NNP";
  }
  t.network = model.find_network(t.executor->network_name);
  NN_CHECK(t.network != nullptr) << "Executor network [" << t.executor->network_name << "] is not found in this NNP.";
  return t;
}

}  // namespace nn::formats
