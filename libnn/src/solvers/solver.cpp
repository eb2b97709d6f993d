// Solver base: parameter registry, gradient utilities (decay, clip, scale, inf/nan checks) and states.
#include "nn/solvers/solver.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>

#include "nn/core/context.hpp"
#include "nn/core/error.hpp"
#include "nn/solvers/solver_device.hpp"
#include "solvers/solver_common.hpp"

namespace nn {

using solvers::for_each_element;

namespace {

// The GPU backend's solver hooks: null until a backend is loaded (every grad is then on the host).
const SolverDeviceHooks* device_hooks() {
  static std::atomic<const SolverDeviceHooks*> hooks{nullptr};
  const SolverDeviceHooks* h = hooks.load(std::memory_order_acquire);
  if (!h) {
    if (void* get = gpu_backend_symbol(kSolverDeviceSymbol)) {
      h = reinterpret_cast<const SolverDeviceHooks* (*)()>(get)();
      hooks.store(h, std::memory_order_release);
    }
  }
  return h;
}

// True when v's grad lives on a GPU device: the update and the gradient utilities then run there.
bool grad_on_device(Variable& v) {
  const SolverDeviceHooks* h = device_hooks();
  return h && h->grad_on_device(v);
}

}  // namespace

void Solver::init_state(Entry& e) {
  e.state = SolverState{};
  for (const auto& name : state_names()) {
    auto a = NdArray::create(e.var->shape());
    a->zero();
    e.state.pstate[name] = a;
  }
}

void Solver::set_parameters(const ParameterList& params, bool reset, bool retain_state) {
  if (reset) clear_parameters();
  for (const auto& [name, var] : params) {
    NN_CHECK(var != nullptr) << type() << " solver: set_parameters: parameter '" << name << "' is null";
    auto it = index_.find(name);
    if (it != index_.end()) {
      Entry& e = params_[it->second];
      if (retain_state) {
        NN_CHECK(var->shape() == e.var->shape())
            << type() << " solver: cannot retain the state of '" << name << "': shape " << var->shape()
            << " differs from the previous " << e.var->shape();
        e.var = var;
        continue;
      }
      e.var = var;
      init_state(e);
      continue;
    }
    index_[name] = params_.size();
    params_.push_back(Entry{name, var, {}});
    init_state(params_.back());
  }
}

void Solver::remove_parameters(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    auto it = index_.find(name);
    if (it == index_.end()) continue;
    params_.erase(params_.begin() + std::ptrdiff_t(it->second));
    index_.clear();
    for (size_t i = 0; i < params_.size(); ++i) index_[params_[i].name] = i;
  }
}

void Solver::clear_parameters() {
  params_.clear();
  index_.clear();
}

Solver::ParameterList Solver::get_parameters() const {
  ParameterList out;
  out.reserve(params_.size());
  for (const auto& e : params_) out.emplace_back(e.name, e.var);
  return out;
}

void Solver::zero_grad() {
  for (auto& e : params_) e.var->grad()->zero();
}

void Solver::update() {
  // Parameters whose grads were written on a GPU device are updated there (built on the first such one).
  std::optional<SolverStep> device_step;
  for (auto& e : params_) {
    bool on_device = false;
    if (grad_on_device(*e.var)) {
      if (!device_step) device_step = SolverStep{type(), hyper_parameters(), initial_learning_rate(), decay_rate_};
      on_device = device_hooks()->update(*device_step, *e.var, e.state);
    }
    if (!on_device) update_impl(e);
    e.state.t = std::min(e.state.t + 1, std::numeric_limits<uint32_t>::max() - 1);
  }
  if (decay_is_fused_ && !keep_decay_rate_) decay_rate_ = default_decay_;
}

void Solver::weight_decay(double wd) {
  if (wd == 0.0) return;
  if (decay_is_fused_) {
    decay_rate_ = wd;
    if (keep_decay_rate_) default_decay_ = wd;
    return;
  }
  const float rate = float(wd);
  for (auto& e : params_) {
    if (grad_on_device(*e.var)) {
      device_hooks()->weight_decay(*e.var, rate);
      continue;
    }
    const float* w = e.var->data()->get<float>();
    float* g = e.var->grad()->cast<float>();
    for_each_element(e.var->size(), [&](int64_t i) { g[i] += rate * w[i]; });
  }
}

void Solver::clip_grad_by_norm(double norm) {
  for (auto& e : params_) {
    if (grad_on_device(*e.var)) {
      device_hooks()->clip_by_norm(*e.var, norm);
      continue;
    }
    const int64_t n = e.var->size();
    float* g = e.var->grad()->cast<float>();
    const double sum = solvers::sum_of_squares(g, n);
    if (sum > 0.0 && sum > norm * norm) {
      const float factor = float(norm / std::sqrt(sum));
      for_each_element(n, [&](int64_t i) { g[i] *= factor; });
    }
  }
}

void Solver::scale_grad(double scale) {
  const float s = float(scale);
  for (auto& e : params_) {
    if (grad_on_device(*e.var)) {
      device_hooks()->scale(*e.var, s);
      continue;
    }
    float* g = e.var->grad()->cast<float>();
    for_each_element(e.var->size(), [&](int64_t i) { g[i] *= s; });
  }
}

namespace {
// Host grads are scanned here; grads on CUDA devices are checked there with one read-back per device.
template <class Pred>
bool any_grad(const std::vector<VariablePtr>& vars, Pred pred, GradCheck test) {
  std::vector<Variable*> on_device;
  for (const auto& v : vars) {
    if (grad_on_device(*v)) {
      on_device.push_back(v.get());
      continue;
    }
    const float* g = v->grad()->get<float>();
    const int64_t n = v->size();
    bool found = false;
#pragma omp parallel for reduction(|| : found) schedule(static) if (n >= solvers::kSolverParallelThreshold)
    for (int64_t i = 0; i < n; ++i) found = found || pred(g[i]);
    if (found) return true;
  }
  if (!on_device.empty()) return device_hooks()->any_grad(on_device, test);
  return false;
}
}  // namespace

bool Solver::check_inf_grad() const {
  std::vector<VariablePtr> vars;
  for (const auto& e : params_) vars.push_back(e.var);
  return any_grad(
      vars, [](float x) { return std::isinf(x); }, GradCheck::kInf);
}

bool Solver::check_nan_grad() const {
  std::vector<VariablePtr> vars;
  for (const auto& e : params_) vars.push_back(e.var);
  return any_grad(
      vars, [](float x) { return std::isnan(x); }, GradCheck::kNan);
}

bool Solver::check_inf_or_nan_grad() const {
  std::vector<VariablePtr> vars;
  for (const auto& e : params_) vars.push_back(e.var);
  return any_grad(
      vars, [](float x) { return !std::isfinite(x); }, GradCheck::kInfOrNan);
}

std::vector<std::pair<std::string, SolverState>> Solver::get_states() const {
  std::vector<std::pair<std::string, SolverState>> out;
  out.reserve(params_.size());
  for (const auto& e : params_) out.emplace_back(e.name, e.state);
  return out;
}

void Solver::set_states(const std::vector<std::pair<std::string, SolverState>>& states) {
  for (const auto& [name, src] : states) {
    Entry& e = find_entry(name, "set_states");
    NN_CHECK(src.pstate.size() == e.state.pstate.size())
        << type() << " solver: set_states: parameter '" << name << "' needs " << e.state.pstate.size()
        << " state arrays, got " << src.pstate.size();
    for (const auto& [state_name, array] : src.pstate) {
      auto it = e.state.pstate.find(state_name);
      NN_CHECK(it != e.state.pstate.end())
          << type() << " solver: set_states: parameter '" << name << "' has no state '" << state_name << "'";
      NN_CHECK(array && array->size() == it->second->size())
          << type() << " solver: set_states: state '" << state_name << "' of '" << name << "' has shape "
          << (array ? array->shape() : Shape{}) << ", expected " << it->second->shape();
      it->second->copy_from(*array);
    }
    e.state.t = src.t;
  }
}

const SolverState& Solver::state(const std::string& param_name) const {
  return find_entry(param_name, "state").state;
}

Solver::Entry& Solver::find_entry(const std::string& name, const char* what) {
  auto it = index_.find(name);
  NN_CHECK(it != index_.end()) << type() << " solver: " << what << ": unknown parameter '" << name << "'";
  return params_[it->second];
}

const Solver::Entry& Solver::find_entry(const std::string& name, const char* what) const {
  auto it = index_.find(name);
  NN_CHECK(it != index_.end()) << type() << " solver: " << what << ": unknown parameter '" << name << "'";
  return params_[it->second];
}

}  // namespace nn
