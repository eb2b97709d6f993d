// nn::Solver: nnabla's parameter-update API (set_parameters, zero_grad, weight_decay, update, states).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "nn/core/ndarray.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/attributes.hpp"

namespace nn {

// Per-parameter solver state: named float32 arrays shaped like the parameter (e.g. Adam's "mean", "var")
// and the update count t (nnabla's SolverState; t saturates at 2^32 - 2).
struct SolverState {
  std::map<std::string, NdArrayPtr> pstate;
  uint32_t t = 0;
};

// What a solver is: its type name (as in Solver.type of .nntxt) and its hyper-parameters by the field
// names of the <solver>_param message. create_solver(info.type, info.params) builds an equal solver.
struct SolverInfo {
  std::string type;
  Attrs params;
};

class Solver {
 public:
  using ParameterList = std::vector<std::pair<std::string, VariablePtr>>;
  virtual ~Solver() = default;
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // Type name, e.g. "Adam".
  virtual std::string type() const = 0;
  // Type name plus hyper-parameters (current learning rate included).
  SolverInfo info() const { return {type(), hyper_parameters()}; }
  virtual double learning_rate() const = 0;
  virtual void set_learning_rate(double lr) = 0;

  // Registers parameters in order. reset=true drops every previous parameter first; otherwise a name
  // already present is replaced (fresh state) unless retain_state, which keeps its state (same shape).
  void set_parameters(const ParameterList& params, bool reset = true, bool retain_state = false);
  // set_parameters(params, reset=false, retain_state=false).
  void add_parameters(const ParameterList& params) { set_parameters(params, false, false); }
  void remove_parameters(const std::vector<std::string>& names);
  void clear_parameters();
  ParameterList get_parameters() const;
  size_t num_parameters() const { return params_.size(); }

  void zero_grad();
  // Updates every parameter in place from its grad. Fused-decay solvers consume the pending decay rate.
  void update();
  // grad += wd * data (nnabla's weight_decay). Solvers that decouple the decay (SgdW, AdamW, Lamb, Lion,
  // Lars) instead remember wd for the next update(). wd == 0 does nothing.
  void weight_decay(double wd);
  // Per parameter: when ||grad|| > norm, grad *= norm / ||grad||.
  void clip_grad_by_norm(double norm);
  void scale_grad(double scale);
  bool check_inf_grad() const;
  bool check_nan_grad() const;
  bool check_inf_or_nan_grad() const;

  // States in parameter order. The arrays are the solver's own (not copies).
  std::vector<std::pair<std::string, SolverState>> get_states() const;
  // Copies values and t into the states of registered parameters; every name, state name and shape must
  // match (throws nn::Error otherwise).
  void set_states(const std::vector<std::pair<std::string, SolverState>>& states);
  const SolverState& state(const std::string& param_name) const;
  // Names of the per-parameter state arrays of this solver (docs/nnp_format.md#solver-state-files), e.g.
  // {"mean", "var"}.
  virtual std::vector<std::string> state_names() const = 0;

 protected:
  // weight_decay_is_fused: weight_decay() only records the rate for the next update, which reverts to
  // default_decay afterwards unless keep_decay_rate (Lars keeps the last rate for all later updates).
  explicit Solver(bool weight_decay_is_fused = false, double default_decay = 0.0, bool keep_decay_rate = false)
      : decay_is_fused_(weight_decay_is_fused),
        keep_decay_rate_(keep_decay_rate),
        default_decay_(default_decay),
        decay_rate_(default_decay) {}

  struct Entry {
    std::string name;
    VariablePtr var;
    SolverState state;
  };
  // Updates one parameter (data in place from grad) and its state; the base increments t afterwards.
  virtual void update_impl(Entry& e) = 0;
  virtual Attrs hyper_parameters() const = 0;
  // Rate of the decoupled weight decay for the running update (fused solvers only).
  double fused_decay_rate() const { return decay_rate_; }
  // The learning rate the solver was created with (AdamW/SgdW scale the decay by lr / initial lr).
  virtual double initial_learning_rate() const { return learning_rate(); }

 private:
  Entry& find_entry(const std::string& name, const char* what);
  const Entry& find_entry(const std::string& name, const char* what) const;
  void init_state(Entry& e);

  std::vector<Entry> params_;
  std::unordered_map<std::string, size_t> index_;
  bool decay_is_fused_;
  bool keep_decay_rate_;
  double default_decay_;
  double decay_rate_;
};

// Builds a solver by type name ("Sgd", "Adam", ... or "SGD") from the fields of its <solver>_param message;
// absent fields take nnabla's API defaults. Unknown types throw nn::Error listing the supported ones.
std::unique_ptr<Solver> create_solver(const std::string& type, const Attrs& params = {});
// Every solver type create_solver accepts, in solvers.def order (without the "SGD" alias).
std::vector<std::string> supported_solvers();

}  // namespace nn
