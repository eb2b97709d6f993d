// BackwardOf: a graph node whose forward is another function's backward (first-order only).
#include <memory>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_schema.hpp"

namespace nn::detail {
namespace {

const OpSchema& backward_schema() {
  static OpSchema s = SchemaBuilder("BackwardOf", "Internal")
                          .doc("the backward of another function, as a forward computation")
                          .in_variadic("inputs")
                          .out_variadic("grads")
                          .build();
  return s;
}

class BackwardOf : public Function {
 public:
  BackwardOf(FunctionPtr target, size_t n_in, size_t n_out, std::vector<bool> wanted)
      : Function(backward_schema(), target->context(), {}),
        target_(std::move(target)),
        n_in_(n_in),
        n_out_(n_out),
        wanted_(std::move(wanted)) {}

  int num_outputs(const std::vector<Shape>&) const override { return int(n_in_); }
  bool has_backward() const override { return false; }

 protected:
  // inputs: original inputs (n_in), original outputs (n_out), output grads (n_out).
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_INTERNAL_CHECK(in.size() == n_in_ + 2 * n_out_) << "BackwardOf arity";
    for (size_t i = 0; i < n_in_; ++i) out[i]->reshape(in[i]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    std::vector<VariablePtr> tin, tout;
    for (size_t i = 0; i < n_in_; ++i) {
      auto v = Variable::create(in[i]->shape());
      v->set_data(in[i]->data());
      v->set_grad(out[i]->data());
      tin.push_back(v);
    }
    for (size_t o = 0; o < n_out_; ++o) {
      auto v = Variable::create(in[n_in_ + o]->shape());
      v->set_data(in[n_in_ + o]->data());
      v->set_grad(in[n_in_ + n_out_ + o]->data());
      tout.push_back(v);
    }
    Variables ti, to;
    for (auto& v : tin) ti.push_back(v.get());
    for (auto& v : tout) to.push_back(v.get());
    for (size_t i = 0; i < n_in_; ++i)
      if (!wanted_[i]) out[i]->data()->zero();
    target_->backward(ti, to, wanted_, std::vector<bool>(n_in_, false));
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  FunctionPtr target_;
  size_t n_in_, n_out_;
  std::vector<bool> wanted_;
};

}  // namespace

std::vector<VariablePtr> backward_as_graph(FunctionNode& fn, const std::vector<VariablePtr>& grad_outputs,
                                           const std::vector<bool>& wanted) {
  auto outs = fn.outputs();
  std::vector<VariablePtr> in(fn.inputs().begin(), fn.inputs().end());
  for (auto& o : outs) in.push_back(o);
  for (size_t o = 0; o < outs.size(); ++o) {
    VariablePtr g = grad_outputs[o];
    if (!g) {
      g = Variable::create(outs[o]->shape());
      g->data()->zero();
    }
    in.push_back(g);
  }
  auto f = std::make_shared<BackwardOf>(fn.function_ptr(), fn.inputs().size(), outs.size(), wanted);
  auto res = connect(f, in, fn.name.empty() ? "" : fn.name + "/backward");
  for (auto& r : res) r->set_need_grad(false);
  return res;
}

}  // namespace nn::detail
