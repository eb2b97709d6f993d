// The executor, network and batch size every exporter and run works on, and the unsupported-function report.
#include "formats/passes/export_target.hpp"

#include <sstream>

#include "formats/passes/batch_size.hpp"
#include "formats/passes/fill_shapes.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/ir/function_label.hpp"

namespace nn::formats {

namespace {
std::string quoted(const std::string& s) { return "'" + s + "'"; }
}  // namespace

const ir::Executor& select_executor(const ir::Model& model, const std::string& name, UnnamedExecutor unnamed) {
  if (name.empty()) {
    if (unnamed == UnnamedExecutor::kOnly) {
      NN_CHECK_CODE(model.executors.size() == 1, ErrorCode::kUnsupported)
          << "NNP with only a single executor is currently supported (this one has " << model.executors.size()
          << "; pick one with -E)";
    }
    NN_CHECK(!model.executors.empty()) << "the model has no executor";
    return model.executors.front();
  }
  if (const ir::Executor* e = model.find_executor(name)) return *e;
  std::string valid;
  for (const auto& e : model.executors) valid += (valid.empty() ? "" : ", ") + quoted(e.name);
  NN_FAIL(ErrorCode::kInvalid) << "unknown executor " << quoted(name) << " (valid executors: " << valid << ")";
}

const ir::Network& executor_network(const ir::Model& model, const ir::Executor& executor) {
  const ir::Network* network = model.find_network(executor.network_name);
  NN_CHECK(network != nullptr) << "executor " << quoted(executor.name) << " names network "
                               << quoted(executor.network_name) << ", which the model does not define";
  return *network;
}

ExportTarget export_target(const ir::Model& model, const ExportTargetOptions& options) {
  ExportTarget t;
  t.executor = &select_executor(model, options.executor, options.unnamed);
  t.source = &executor_network(model, *t.executor);
  if (options.batch_size < 1) {
    NN_LOG_INFO << options.format << ": Using batch size from input file.";
  }
  t.network = set_batch_size(*t.source, options.batch_size < 1 ? 0 : options.batch_size);
  if (options.fill_shapes) fill_missing_shapes(model, t.network);
  return t;
}

void convert_each_function(const ir::Network& network, const std::string& format,
                           const std::function<void(const ir::Function&)>& convert) {
  std::ostringstream problems;
  int n_problems = 0;
  for (const ir::Function& f : network.functions) {
    try {
      convert(f);
    } catch (const Error& err) {
      problems << (n_problems++ ? "; " : "") << ir::label(f) << ": " << err.what();
    }
  }
  NN_CHECK_CODE(n_problems == 0, ErrorCode::kUnsupported)
      << "network " << quoted(network.name) << ": " << n_problems << " function(s) cannot be converted to "
      << format << ": " << problems.str();
}

}  // namespace nn::formats
