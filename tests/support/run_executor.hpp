// Runs a model's first executor on one input, the way the plain kernels compute it or the way executors run it,
// and measures how far two outputs are apart: for tests of the inference passes.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "nn/graph/grad_mode.hpp"
#include "nn/ir/graph_builder.hpp"

namespace nn::test {

// The first executor's first output for `input` at `batch`: as the plain kernels compute it (gradients on,
// nothing freed), or as executors run it (gradients off, each intermediate freed after its last reader and
// outputs computed in place).
inline std::vector<float> run_first_executor(const ir::Model& model, const std::vector<float>& input,
                                             bool as_executor, int64_t batch = 1) {
  const ir::Executor& exec = model.executors.at(0);
  ir::ParameterStore params;
  params.load(model.parameters);
  ir::BuildOptions options;
  options.batch_size = batch;
  ir::BuiltNetwork built = ir::build_network(*model.find_network(exec.network_name), params, options);
  VariablePtr x = built.get(exec.data_variable.at(0).variable_name);
  if (x->size() != int64_t(input.size())) return {};
  std::copy(input.begin(), input.end(), x->data()->cast<float>(true));
  VariablePtr y = built.get(exec.output_variable.at(0).variable_name);
  if (as_executor) {
    NoGradScope scope;
    forward_all({y}, /*clear_buffer=*/true);
  } else {
    forward_all({y});
  }
  return y->data()->to_vector();
}

// The largest difference relative to the largest value of `want` (1 when the sizes differ).
inline double relative_error(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return 1;
  double scale = 1e-30, worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    scale = std::max(scale, double(std::abs(want[i])));
    worst = std::max(worst, double(std::abs(got[i] - want[i])));
  }
  return worst / scale;
}

}  // namespace nn::test
