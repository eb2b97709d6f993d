// Variable and FunctionNode: graph construction, forward in rank order, backward with nnabla's accumulation.
#include "nn/graph/variable.hpp"

#include <algorithm>
#include <atomic>
#include <unordered_set>

#include "nn/core/error.hpp"
#include "nn/ops/op_schema.hpp"
#include "ops/detail/adaptive_wait.hpp"

namespace nn {

Variable::Variable(Shape shape, bool need_grad) : shape_(std::move(shape)), need_grad_(need_grad) {
  check_shape(shape_, "variable");
}

void Variable::reshape(const Shape& shape, bool force) {
  if (shape == shape_) return;
  check_shape(shape, "variable");
  shape_ = shape;
  if (data_) data_->reshape(shape, force);
  if (grad_) grad_->reshape(shape, force);
}

const NdArrayPtr& Variable::data() {
  if (!data_) data_ = NdArray::create(shape_);
  return data_;
}

const NdArrayPtr& Variable::grad() {
  if (!grad_) grad_ = NdArray::create(shape_);
  return grad_;
}

void Variable::set_data(NdArrayPtr a) {
  NN_INTERNAL_CHECK(a && a->size() == size()) << "set_data size";
  a->reshape(shape_);
  data_ = std::move(a);
}

void Variable::set_grad(NdArrayPtr a) {
  NN_INTERNAL_CHECK(a && a->size() == size()) << "set_grad size";
  a->reshape(shape_);
  grad_ = std::move(a);
}

void Variable::set_parent(FunctionNodePtr p) {
  parent_ = std::move(p);
  rank_ = parent_ ? parent_->rank() : 0;
}

VariablePtr Variable::unlinked() const {
  auto v = Variable::create(shape_, need_grad_);
  auto self = const_cast<Variable*>(this);
  v->data_ = self->data();
  v->grad_ = self->grad();
  v->name_ = name_;
  return v;
}

void Variable::rewire_on(const VariablePtr& var) {
  NN_CHECK(var->shape() == shape_) << "rewire_on: shapes differ " << to_string(shape_) << " vs "
                                   << to_string(var->shape());
  auto p = var->parent();
  if (p) p->replace_output(var.get(), shared_from_this());
  set_parent(p);
  var->set_parent(nullptr);
  data_ = var->data();
  if (var->need_grad()) need_grad_ = true;
}

void Variable::visit_functions(const std::function<void(FunctionNode&)>& f) {
  for (auto* fn : collect_functions({shared_from_this()})) f(*fn);
}

// ---------------------------------------------------------------------------------------------------
FunctionNode::FunctionNode(FunctionPtr f, std::vector<VariablePtr> inputs)
    : function_(std::move(f)), inputs_(std::move(inputs)) {
  for (const auto& v : inputs_) rank_ = std::max(rank_, v->rank() + 1);
}

std::vector<VariablePtr> FunctionNode::outputs() const {
  std::vector<VariablePtr> outs;
  outputs(outs);
  return outs;
}

void FunctionNode::outputs(std::vector<VariablePtr>& into) const {
  into.clear();
  for (const auto& w : outputs_) {
    into.push_back(w.lock());
    if (!into.back()) into.back() = Variable::create();  // an output nobody holds any more: a scratch variable
  }
}

void FunctionNode::set_outputs(const std::vector<VariablePtr>& outs) { outputs_.assign(outs.begin(), outs.end()); }

void FunctionNode::replace_output(Variable* old_var, const VariablePtr& new_var) {
  for (auto& w : outputs_)
    if (w.lock().get() == old_var) w = new_var;
}

bool FunctionNode::need_grad() const {
  for (const auto& v : inputs_)
    if (v->need_grad()) return true;
  return false;
}

std::string FunctionNode::label() const {
  if (name.empty()) return function_->type();
  return "'" + name + "' (" + function_->type() + ")";
}

namespace {
// connect, with `declared` output shapes when setup fails (null: it throws).
std::vector<VariablePtr> place(const FunctionPtr& f, const std::vector<VariablePtr>& inputs,
                               const std::string& name, const std::vector<Shape>* declared) {
  auto node = std::make_shared<FunctionNode>(f, inputs);
  node->name = name;
  std::vector<VariablePtr> outs;
  std::vector<Shape> shapes;
  for (const auto& v : inputs) shapes.push_back(v->shape());
  int n = f->num_outputs(shapes);
  bool need_grad = node->need_grad();
  for (int i = 0; i < n; ++i) outs.push_back(Variable::create({}, need_grad));
  Variables in, out;
  for (auto& v : inputs) in.push_back(v.get());
  for (auto& v : outs) out.push_back(v.get());
  try {
    with_context(name.empty() ? f->type() : "function " + node->label(), [&] { f->setup(in, out); });
  } catch (const Error&) {
    if (!declared || declared->size() != outs.size()) throw;
    for (size_t i = 0; i < outs.size(); ++i) outs[i]->reshape((*declared)[i], true);
  }
  node->set_outputs(outs);
  for (auto& v : outs) v->set_parent(node);
  return outs;
}
}  // namespace

std::vector<VariablePtr> connect(const FunctionPtr& f, const std::vector<VariablePtr>& inputs,
                                 const std::string& name) {
  return place(f, inputs, name, nullptr);
}

std::vector<VariablePtr> connect_or_defer(const FunctionPtr& f, const std::vector<VariablePtr>& inputs,
                                          const std::vector<Shape>& declared) {
  return place(f, inputs, "", &declared);
}

// ---------------------------------------------------------------------------------------------------
std::vector<FunctionNode*> collect_functions(const std::vector<VariablePtr>& outputs) {
  static std::atomic<uint64_t> walks{0};
  const uint64_t walk = ++walks;  // nodes remember the last walk that saw them: no set to hash into
  std::vector<FunctionNode*> order;
  // Iterative post-order DFS (deep graphs must not overflow the stack).
  std::vector<std::pair<FunctionNode*, size_t>> stack;
  for (const auto& o : outputs) {
    FunctionNode* root = o->parent().get();
    if (!root || !root->visit(walk)) continue;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [fn, next] = stack.back();
      if (next < fn->inputs().size()) {
        FunctionNode* p = fn->inputs()[next++]->parent().get();
        if (p && p->visit(walk)) stack.push_back({p, 0});
      } else {
        order.push_back(fn);
        stack.pop_back();
      }
    }
  }
  return order;
}

namespace {
void raw_into(const std::vector<VariablePtr>& v, Variables& into) {
  into.clear();
  for (auto& x : v) into.push_back(x.get());
}

Variables raw(const std::vector<VariablePtr>& v) {
  Variables r;
  raw_into(v, r);
  return r;
}

bool inputs_changed(const Function& f, const Variables& in) {
  if (f.setup_input_shapes().size() != in.size()) return true;  // never set up (connect_or_defer)
  for (size_t i = 0; i < in.size(); ++i)
    if (in[i]->shape() != f.setup_input_shapes()[i]) return true;
  return false;
}

// Runs fn's forward over `in` and `out` (its inputs and outputs); with `in_place` (one of its inputs, see
// Function::forward_in_place), output 0 is computed over that input's array, which then leaves the input (its
// variable makes a new, empty one when next asked for its data).
void run_forward(FunctionNode& fn, const Variables& in, const Variables& out, Variable* in_place = nullptr) {
  Function& f = fn.function();
  const bool changed = inputs_changed(f, in);
  try {
    if (changed) f.setup(in, out);
    if (in_place) out[0]->set_data(in_place->data());
    f.forward(in, out);
    if (in_place) in_place->drop_data();
  } catch (Error& e) {
    e.add_context("function " + fn.label());  // built only on failure: forward is hot at batch 1
    throw;
  }
}

bool holds(const std::vector<VariablePtr>& vars, const Variable* v) {
  for (const auto& x : vars)
    if (x.get() == v) return true;
  return false;
}

// The input whose array fn's output may take (an intermediate that only fn still reads, once, of the output's
// shape, and the function computes element-wise from it), or null. `keep`: the pass's outputs, never taken.
// An array something else also holds (another variable's data, a caller's reference) is never taken.
Variable* in_place_input(FunctionNode& fn, const std::vector<VariablePtr>& outs,
                         const std::vector<VariablePtr>& keep) {
  if (outs.size() != 1 || outs[0]->persistent() || holds(keep, outs[0].get())) return nullptr;
  for (size_t i = 0; i < fn.inputs().size(); ++i) {
    Variable* v = fn.inputs()[i].get();
    if (v->pending_readers() != 1 || !v->parent() || v->persistent() || holds(keep, v) ||
        v->data().use_count() != 1)
      continue;
    if (v->shape() == outs[0]->shape() && fn.function().forward_in_place(int(i))) return v;
  }
  return nullptr;
}
}  // namespace

void forward_all(const std::vector<VariablePtr>& outputs, bool clear_buffer, bool clear_no_need_grad,
                 const FunctionHook& pre, const FunctionHook& post) {
  ops::follow_machine_load();
  const auto order = collect_functions(outputs);
  const bool releasing = clear_buffer || clear_no_need_grad;
  // Readers left per intermediate (Variable::pending_readers), to free it once its last reader ran. Parameters
  // and inputs (no parent) are never freed, nor counted: graphs that run at once on several threads share them.
  if (releasing) {
    for (auto* fn : order)
      for (auto& v : fn->inputs())
        if (v->parent()) v->set_pending_readers(0);
    for (auto* fn : order)
      for (auto& v : fn->inputs())
        if (v->parent()) v->set_pending_readers(v->pending_readers() + 1);
  }
  std::vector<VariablePtr> outs;  // reused by every function: no allocation per call
  Variables in, out;
  for (auto* fn : order) {
    fn->outputs(outs);
    raw_into(fn->inputs(), in);
    raw_into(outs, out);
    if (pre) pre(*fn);
    run_forward(*fn, in, out, clear_buffer ? in_place_input(*fn, outs, outputs) : nullptr);
    if (post) post(*fn);
    if (!releasing) continue;
    for (Variable* v : in) {
      if (!v->parent()) continue;
      v->set_pending_readers(v->pending_readers() - 1);
      if (v->pending_readers() > 0 || v->persistent() || holds(outputs, v)) continue;
      bool needed_by_backward = false;
      if (!clear_buffer) needed_by_backward = v->need_grad() || fn->need_grad();
      if (!needed_by_backward && v->has_data()) v->data()->clear();
    }
  }
}

void setup_changed(const std::vector<VariablePtr>& outputs) {
  std::vector<VariablePtr> outs;
  Variables in, out;
  for (auto* fn : collect_functions(outputs)) {
    raw_into(fn->inputs(), in);
    if (!inputs_changed(fn->function(), in)) continue;
    fn->outputs(outs);
    raw_into(outs, out);
    try {
      fn->function().setup(in, out);
    } catch (Error& e) {
      e.add_context("function " + fn->label());
      throw;
    }
  }
}

void Variable::forward(bool clear_buffer, bool clear_no_need_grad, const FunctionHook& pre,
                       const FunctionHook& post) {
  forward_all({shared_from_this()}, clear_buffer, clear_no_need_grad, pre, post);
}

void Variable::backward(const NdArrayPtr& root_grad, bool clear_buffer) {
  grad()->copy_from(*root_grad);
  backward(RootGrad::kKeep, clear_buffer);
}

void Variable::backward(RootGrad root, bool clear_buffer, const FunctionHook& pre, const FunctionHook& post) {
  if (root == RootGrad::kOnes) grad()->fill(1.0);
  auto order = collect_functions({shared_from_this()});
  // Intermediate grads are overwritten by their first writer in this pass, then accumulated;
  // leaf grads always accumulate (nnabla: call zero_grad between iterations).
  std::unordered_set<Variable*> written;
  written.insert(this);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    FunctionNode& fn = **it;
    auto outs = fn.outputs();
    bool any_grad = false;
    for (auto& o : outs) any_grad |= written.count(o.get()) > 0;
    std::vector<bool> prop(fn.inputs().size()), accum(fn.inputs().size());
    std::unordered_set<Variable*> this_call;  // an input used twice accumulates its second grad
    for (size_t i = 0; i < fn.inputs().size(); ++i) {
      Variable* v = fn.inputs()[i].get();
      prop[i] = any_grad && v->need_grad();
      accum[i] = !v->parent() || written.count(v) > 0 || this_call.count(v) > 0;
      if (prop[i]) this_call.insert(v);
    }
    // Outputs nobody differentiated get zero grads so the kernel can read them.
    for (auto& o : outs)
      if (!written.count(o.get())) o->grad()->zero();
    if (pre) pre(fn);
    try {
      fn.function().backward(raw(fn.inputs()), raw(outs), prop, accum);
    } catch (Error& e) {
      e.add_context("function " + fn.label() + " backward");
      throw;
    }
    if (post) post(fn);
    for (size_t i = 0; i < prop.size(); ++i)
      if (prop[i]) written.insert(fn.inputs()[i].get());
    if (clear_buffer) {
      for (auto& o : outs)
        if (o.get() != this && !o->persistent()) {
          o->grad()->clear();
          o->data()->clear();
        }
    }
  }
}

}  // namespace nn
