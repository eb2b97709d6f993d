// `nncli compare_with_cpu` engine: runs two models (or one model on two contexts) on the same data and
// parameters, capturing every function's outputs, the backward gradients and the solver update, pairwise.
#pragma once
#include <string>
#include <vector>

#include "nn/core/context.hpp"
#include "nn/ir/model.hpp"

namespace nncli::compare {

// One compared value: a function output, an input gradient or an updated parameter.
struct Entry {
  std::string name;  // "forward_function (<fname>, <var>)", "backward_function (...)", "update (<Solver>, <p>)"
  double norm_diff = 0, std1 = 0, std2 = 0, diff_std = 0;
  double max_abs_diff = 0;
  bool within_tolerance = true;
  bool shape_mismatch = false;
};

struct TargetComparison {
  std::string title;  // "optimizer '<name>' with network '<net>'" or "executor ..."
  std::string data_note;
  std::vector<Entry> entries;  // forward order, then backward order, then update
};

struct CompareSettings {
  nn::Context context1 = nn::cpu_context(), context2 = nn::cpu_context();
  int64_t batch_size = -1;
  uint32_t seed = 0;
  double atol = 1e-5, rtol = 1e-3;
};

// Copies parameters of `first` into `second` (by name), then compares each optimizer (training: forward,
// backward, update) or, when the first model has none, each executor (forward).
std::vector<TargetComparison> compare_models(const nn::ir::Model& first, nn::ir::Model second,
                                             const CompareSettings& settings);

}  // namespace nncli::compare
