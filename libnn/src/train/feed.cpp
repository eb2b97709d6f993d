// Feeding networks during training and evaluation (docs/command_line.md#train-one-iteration, steps 1-2;
// docs/nnp_format.md#generator-variables).
#include "train/feed.hpp"

#include <algorithm>
#include <cstring>

#include "nn/core/error.hpp"
#include "nn/core/random.hpp"
#include "nn/ir/initializer.hpp"

namespace nn::train::detail {

namespace {

bool is_reserved_name(const std::string& n) {
  return n == "%iter" || n == "%max_iter" || n == "%epoch" || n == "%epochf" || n == "%max_epoch" ||
         n == "%progress";
}

// The batch of `dataset` among the named batches (the last one of that name), or nullptr.
const Batch* batch_of(const std::vector<std::pair<std::string, const Batch*>>& batches,
                      const std::string& dataset) {
  const Batch* batch = nullptr;
  for (const auto& [name, candidate] : batches)
    if (name == dataset) batch = candidate;
  return batch;
}

double reserved_value(const std::string& n, const IterationInfo& info) {
  const double ipe = double(std::max<int64_t>(info.iter_per_epoch, 1));
  if (n == "%iter") return double(info.it);
  if (n == "%max_iter") return double(info.max_epoch * info.iter_per_epoch);
  if (n == "%epoch") return double(info.it / std::max<int64_t>(info.iter_per_epoch, 1));
  if (n == "%epochf") return double(info.it) / ipe;
  if (n == "%max_epoch") return double(info.max_epoch);
  return info.max_epoch > 0 ? double(info.it) / ipe / double(info.max_epoch) : 0.0;  // %progress
}

}  // namespace

std::vector<DataBinding> bind_data(const std::vector<ir::DataVariable>& data_variables,
                                   const ir::BuiltNetwork& network,
                                   const std::vector<std::pair<std::string, const BatchSource*>>& datasets,
                                   const std::string& owner) {
  std::vector<DataBinding> out;
  for (const auto& dv : data_variables) {
    DataBinding b;
    b.variable_name = dv.variable_name;
    b.data_name = dv.data_name;
    b.variable = with_context(owner, [&] { return network.get(dv.variable_name); });
    for (const auto& [name, source] : datasets) {
      int column = source->find_variable(dv.data_name);
      if (column >= 0) {
        b.dataset = name;
        b.column = column;
        break;
      }
    }
    if (b.column < 0) {
      const std::string ds = datasets.empty() ? "" : datasets.front().first;
      NN_CHECK(!dv.data_name.empty() && dv.data_name[0] == '%' && is_reserved_name(dv.data_name))
          << "Variable \"" << dv.data_name << "\" is not found in dataset \"" << ds << "\", " << owner;
    }
    out.push_back(std::move(b));
  }
  return out;
}

void copy_into_variable(Variable& var, const Shape& shape, const float* values, const std::string& data_name,
                        const std::string& variable_name) {
  const Shape& target = var.shape();
  float* dst = var.data()->cast<float>(true);
  if (shape_size(shape) == shape_size(target)) {
    std::memcpy(dst, values, sizeof(float) * size_t(shape_size(target)));
    return;
  }
  // numpy broadcasting of the data to the variable's shape (right-aligned, size-1 dims repeat).
  const int nd = int(target.size());
  bool ok = int(shape.size()) <= nd;
  std::vector<int64_t> src_dim(size_t(nd), 1);
  for (int i = 0; ok && i < int(shape.size()); ++i) src_dim[size_t(nd - int(shape.size()) + i)] = shape[size_t(i)];
  for (int i = 0; ok && i < nd; ++i) ok = src_dim[size_t(i)] == target[size_t(i)] || src_dim[size_t(i)] == 1;
  NN_CHECK(ok) << "Shape does not match between data \"" << data_name << "\" and variable \"" << variable_name
               << "\" (" << to_string(shape) << " != " << to_string(target) << ").";
  std::vector<int64_t> src_stride(size_t(nd), 0);
  for (int i = nd - 1, s = 1; i >= 0; --i) {
    src_stride[size_t(i)] = src_dim[size_t(i)] == 1 ? 0 : s;
    s *= int(src_dim[size_t(i)]);
  }
  const int64_t n = shape_size(target);
  std::vector<int64_t> index(size_t(nd), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int i = 0; i < nd; ++i) offset += index[size_t(i)] * src_stride[size_t(i)];
    dst[k] = values[offset];
    for (int i = nd - 1; i >= 0; --i) {
      if (++index[size_t(i)] < target[size_t(i)]) break;
      index[size_t(i)] = 0;
    }
  }
}

void assign_data(const std::vector<DataBinding>& bindings,
                 const std::vector<std::pair<std::string, const Batch*>>& batches, const IterationInfo& info) {
  for (const auto& b : bindings) {
    if (b.column < 0) {
      b.variable->data()->fill(reserved_value(b.data_name, info));
      continue;
    }
    const Batch* batch = batch_of(batches, b.dataset);
    NN_INTERNAL_CHECK(batch != nullptr) << "no batch of dataset " << b.dataset;
    copy_into_variable(*b.variable, batch->shapes[size_t(b.column)], batch->data[size_t(b.column)].data(),
                       b.data_name, b.variable_name);
  }
}

std::vector<IndexCheck> bind_index_checks(const std::vector<DataBinding>& bindings,
                                          const std::vector<VariablePtr>& outputs) {
  std::vector<IndexCheck> checks;
  for (FunctionNode* fn : collect_functions(outputs))
    for (const auto& [input, bound] : fn->function().index_inputs())
      for (size_t b = 0; b < bindings.size(); ++b)
        if (bindings[b].column >= 0 && bindings[b].variable == fn->inputs().at(size_t(input)))
          checks.push_back({b, bound, fn->label()});
  return checks;
}

void check_indices(const std::vector<IndexCheck>& checks, const std::vector<DataBinding>& bindings,
                   const std::vector<std::pair<std::string, const Batch*>>& batches) {
  for (const IndexCheck& c : checks) {
    const DataBinding& b = bindings[c.binding];
    const float* v = b.variable->data()->get<float>();
    const int64_t n = b.variable->size();
    for (int64_t i = 0; i < n; ++i) {
      if (v[i] >= 0.0f && double(v[i]) < double(c.bound)) continue;  // NaN fails too
      const Batch* batch = batch_of(batches, b.dataset);
      const Shape& shape = b.variable->shape();
      // Rows map to samples when the column fills the variable without broadcasting.
      const bool rows = batch && batch->origin && !shape.empty() && shape[0] > 0 &&
                        shape_size(batch->shapes[size_t(b.column)]) == n;
      const std::string where = rows ? batch->origin(i / (n / shape[0]), b.column)
                                     : "dataset '" + b.dataset + "', variable '" + b.data_name + "'";
      NN_FAIL(ErrorCode::kInvalid) << where << ": class index " << v[i] << " is outside [0, " << c.bound
                                   << ") expected by " << c.function;
    }
  }
}

std::vector<GeneratorBinding> bind_generators(const std::vector<ir::GeneratorVariable>& generators,
                                              const ir::BuiltNetwork& network) {
  std::vector<GeneratorBinding> out;
  for (const auto& g : generators) {
    NN_CHECK(g.type == "Normal" || g.type == "Uniform" || g.type == "Constant" || g.type == "Range")
        << "generator variable '" << g.variable_name << "': unknown type '" << g.type
        << "' (Normal, Uniform, Constant or Range)";
    out.push_back({network.get(g.variable_name), g.type, g.multiplier});
  }
  return out;
}

void fill_generators(const std::vector<GeneratorBinding>& generators) {
  for (const auto& g : generators) {
    if (g.type == "Constant") {
      g.variable->data()->fill(g.multiplier);
      continue;
    }
    float* dst = g.variable->data()->cast<float>(true);
    initialize_parameter(g.type, g.multiplier, g.variable->shape(), dst, global_random());
  }
}

double mean_value(Variable& var) {
  const float* p = var.data()->get<float>();
  const int64_t n = var.size();
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) sum += p[i];
  return n > 0 ? sum / double(n) : 0.0;
}

void refresh_need_grad(const std::vector<VariablePtr>& outputs) {
  for (FunctionNode* fn : collect_functions(outputs)) {
    const bool need = fn->need_grad();
    for (auto& o : fn->outputs()) o->set_need_grad(need);
  }
}

}  // namespace nn::train::detail
