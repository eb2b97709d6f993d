// Variable: data and grad arrays plus its place in the computation graph (nnabla's Variable + CgVariable).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nn/core/ndarray.hpp"
#include "nn/graph/function.hpp"

namespace nn {

class Variable;
class FunctionNode;
using VariablePtr = std::shared_ptr<Variable>;
using FunctionNodePtr = std::shared_ptr<FunctionNode>;
using FunctionHook = std::function<void(const FunctionNode&)>;

// How backward seeds the root's gradient.
enum class RootGrad { kOnes, kKeep };

class Variable : public std::enable_shared_from_this<Variable> {
 public:
  explicit Variable(Shape shape = {}, bool need_grad = false);
  static VariablePtr create(Shape shape = {}, bool need_grad = false) {
    return std::make_shared<Variable>(std::move(shape), need_grad);
  }

  const Shape& shape() const { return shape_; }
  int64_t size() const { return shape_size(shape_); }
  int ndim() const { return int(shape_.size()); }
  void reshape(const Shape& shape, bool force = false);

  const NdArrayPtr& data();
  const NdArrayPtr& grad();
  void set_data(NdArrayPtr a);
  void set_grad(NdArrayPtr a);
  bool has_grad() const { return grad_ != nullptr; }
  bool has_data() const { return data_ != nullptr; }
  void drop_data() { data_.reset(); }  // data() makes a new, empty array when next asked

  bool need_grad() const { return need_grad_; }
  void set_need_grad(bool v) { need_grad_ = v; }
  bool persistent() const { return persistent_; }
  void set_persistent(bool v) { persistent_ = v; }
  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }

  const FunctionNodePtr& parent() const { return parent_; }
  void set_parent(FunctionNodePtr p);
  int rank() const { return rank_; }

  // Runs every function this variable depends on, in rank order.
  void forward(bool clear_buffer = false, bool clear_no_need_grad = false, const FunctionHook& pre = nullptr,
               const FunctionHook& post = nullptr);
  // Backpropagates from this variable. The root grad is 1 (kOnes) or its current grad (kKeep).
  void backward(RootGrad root = RootGrad::kOnes, bool clear_buffer = false, const FunctionHook& pre = nullptr,
                const FunctionHook& post = nullptr);
  void backward(const NdArrayPtr& root_grad, bool clear_buffer = false);

  // A new variable sharing data and grad, cut from the graph.
  VariablePtr unlinked() const;
  // This variable takes the place of `var` as the output of var's parent function.
  void rewire_on(const VariablePtr& var);
  // Calls f on each function this variable depends on, in forward order.
  void visit_functions(const std::function<void(FunctionNode&)>& f);

  // forward_all's count of the functions still to read this intermediate in the pass running over its graph
  // (a field, not a map: forward's bookkeeping was hashing per function per call). Meaningless elsewhere.
  int pending_readers() const { return pending_readers_; }
  void set_pending_readers(int n) { pending_readers_ = n; }

 private:
  Shape shape_;
  NdArrayPtr data_, grad_;
  bool need_grad_ = false;
  bool persistent_ = false;
  std::string name_;
  FunctionNodePtr parent_;
  int rank_ = 0;
  int pending_readers_ = 0;
};

// A Function placed in the graph: owns its inputs, knows its outputs weakly.
class FunctionNode : public std::enable_shared_from_this<FunctionNode> {
 public:
  FunctionNode(FunctionPtr f, std::vector<VariablePtr> inputs);
  Function& function() const { return *function_; }
  const FunctionPtr& function_ptr() const { return function_; }
  const std::vector<VariablePtr>& inputs() const { return inputs_; }
  std::vector<VariablePtr> outputs() const;  // an output nobody holds any more comes back as a scratch variable
  void outputs(std::vector<VariablePtr>& into) const;  // the same into a vector the caller reuses
  // Marks this node seen by the graph walk `walk` (collect_functions numbers its walks); false when it was
  // already. A walk runs on one thread; walks of one graph from two threads at once are not supported.
  bool visit(uint64_t walk) {
    if (visited_by_ == walk) return false;
    visited_by_ = walk;
    return true;
  }
  void set_outputs(const std::vector<VariablePtr>& outs);
  void replace_output(Variable* old_var, const VariablePtr& new_var);
  int rank() const { return rank_; }
  bool need_grad() const;     // any input needs grad
  std::string label() const;  // "'name' (Type)" or "Type"
  std::string name;

 private:
  FunctionPtr function_;
  std::vector<VariablePtr> inputs_;
  std::vector<std::weak_ptr<Variable>> outputs_;
  int rank_ = 0;
  uint64_t visited_by_ = 0;
};

// Places f in the graph over inputs; creates, sets up and returns its outputs.
std::vector<VariablePtr> connect(const FunctionPtr& f, const std::vector<VariablePtr>& inputs,
                                 const std::string& name = "");
// As connect, for a graph built over stand-in values (a sub-graph whose shapes follow values it is not yet given):
// a function whose setup refuses them gets outputs of the `declared` shapes (one per output, or the error is
// thrown) and is set up when it first runs (forward_all, setup_changed).
std::vector<VariablePtr> connect_or_defer(const FunctionPtr& f, const std::vector<VariablePtr>& inputs,
                                          const std::vector<Shape>& declared);

// Forward over the union graph of several outputs (each function runs once).
void forward_all(const std::vector<VariablePtr>& outputs, bool clear_buffer = false,
                 bool clear_no_need_grad = false, const FunctionHook& pre = nullptr,
                 const FunctionHook& post = nullptr);

// Sets up again, in forward order, every function the outputs depend on whose input shapes differ from those
// its last setup saw (new input shapes of a run): output shapes follow, and a shape a function cannot take
// throws naming it. forward_all does the same lazily, function by function, which a function whose output
// shape follows its data (NonZero, Unique) needs; this one finds a bad shape before anything runs.
void setup_changed(const std::vector<VariablePtr>& outputs);

// Functions the outputs depend on, each once, in forward (topological) order.
std::vector<FunctionNode*> collect_functions(const std::vector<VariablePtr>& outputs);

}  // namespace nn
