// If: ONNX's If with its condition read when it runs, each branch a graph of its own; the outputs take the
// chosen branch's shapes. Inference only.
#include "ops/detail/op_common.hpp"
#include "ops/special/subgraph_io.hpp"

namespace nn::ops {
namespace {

// Inputs: the condition, the values the then branch reads (num_then_inputs), then those the else branch reads.
// Each branch gives the num_outputs outputs.
class If : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }
  size_t num_subgraphs() const override { return 2; }
  int num_outputs(const std::vector<Shape>&) const override { return int(attrs_.get_int("num_outputs")); }
  void set_subgraphs(std::vector<SubGraph> graphs) override {
    NN_INTERNAL_CHECK(graphs.size() == 2) << "If runs two branches, given " << graphs.size();
    branches_ = std::move(graphs);
  }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(branches_.size() == 2) << "If: no branches were given";
    const int64_t n_then = attrs_.get_int("num_then_inputs");
    NN_CHECK(n_then >= 0 && size_t(n_then) == branches_[0].inputs.size() &&
             1 + branches_[0].inputs.size() + branches_[1].inputs.size() == in.size())
        << "If: " << in.size() << " inputs do not fit branches reading " << branches_[0].inputs.size() << " and "
        << branches_[1].inputs.size();
    for (const auto& b : branches_)
      NN_CHECK(b.outputs.size() == out.size())
          << "If: a branch gives " << b.outputs.size() << " outputs, the function " << out.size();
    NN_CHECK(in[0]->size() == 1) << "If: the condition must hold one value, got " << in[0]->size();
    for (size_t b = 0; b < 2; ++b) {
      const size_t first = b == 0 ? 1 : 1 + size_t(n_then);
      for (size_t i = 0; i < branches_[b].inputs.size(); ++i)
        feed(branches_[b].inputs[i], in[first + i]);  // functions whose output size follows values read them
      setup_subgraph(branches_[b].outputs);
    }
    // The branch the condition's current value chooses (at import, its stand-in) gives the shapes until it runs.
    const SubGraph& chosen = branches_[chosen_branch(in)];
    for (size_t j = 0; j < out.size(); ++j) out[j]->reshape(chosen.outputs[j]->shape(), true);
  }

  static size_t chosen_branch(const Variables& in) { return in_data(in[0])[0] != 0.f ? 0 : 1; }

  void forward_impl(const Variables& in, const Variables& out) override {
    const size_t b = chosen_branch(in);
    const size_t first = b == 0 ? 1 : 1 + size_t(attrs_.get_int("num_then_inputs"));
    SubGraph& g = branches_[b];
    for (size_t i = 0; i < g.inputs.size(); ++i) feed(g.inputs[i], in[first + i]);
    forward_all(g.outputs, /*clear_buffer=*/true);
    for (size_t j = 0; j < out.size(); ++j) take(out[j], g.outputs[j]);
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

  std::vector<SubGraph> branches_;
};

}  // namespace

void register_if(OpRegistry& r) {
  register_cpu<If>(r, SchemaBuilder("If", "Unsupported, Special Use")
                          .doc("ONNX If: runs the branch its condition chooses (inference only)")
                          .in("condition")
                          .in_variadic("values")
                          .arg("num_then_inputs", AttrType::kInt, int64_t(0))
                          .arg("num_outputs", AttrType::kInt, int64_t(1))
                          .out_variadic("y")
                          .build());
}
}  // namespace nn::ops
