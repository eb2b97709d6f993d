// Loop: ONNX's loop, its body a graph run once per iteration (trip count and/or condition, carried values,
// scan outputs stacked along a new axis 0). Inference only.
#include <string>

#include "ops/detail/op_common.hpp"
#include "ops/special/subgraph_io.hpp"

namespace nn::ops {
namespace {

// Inputs: trip count M, condition, the N carried values' initial values, then every other value the body reads.
// The body's inputs are the same list with the iteration number in place of M; its outputs are the condition,
// the N carried values and the K scan values. Outputs: the N final carried values, then the K scan outputs.
class Loop : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }
  size_t num_subgraphs() const override { return 1; }
  int num_outputs(const std::vector<Shape>&) const override { return int(carried() + scans()); }
  void set_subgraphs(std::vector<SubGraph> graphs) override {
    NN_INTERNAL_CHECK(graphs.size() == 1) << "Loop runs one body, given " << graphs.size();
    body_ = std::move(graphs[0]);
  }

 protected:
  size_t carried() const { return size_t(attrs_.get_int("num_carried")); }
  size_t scans() const { return size_t(attrs_.get_int("num_scan")); }

  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(attrs_.get_int("num_carried") >= 0 && attrs_.get_int("num_scan") >= 0 &&
             attrs_.get_int("max_iterations") >= 0)
        << "Loop: num_carried, num_scan and max_iterations must not be negative";
    NN_CHECK(!body_.outputs.empty()) << "Loop: no body graph was given";
    NN_CHECK(in.size() >= 2 + carried() && body_.inputs.size() == in.size() &&
             body_.outputs.size() == 1 + carried() + scans())
        << "Loop: " << in.size() << " inputs and a body of " << body_.inputs.size() << " inputs and "
        << body_.outputs.size() << " outputs do not fit " << carried() << " carried and " << scans()
        << " scan values";
    for (size_t i = 0; i < 2; ++i) NN_CHECK(in[i]->size() == 1) << "Loop: input " << i << " must hold one value";
    // The first iteration's inputs: functions whose output size follows values read them at setup.
    feed_scalar(body_.inputs[0], 0.f);
    feed_scalar(body_.inputs[1], 1.f);
    for (size_t i = 2; i < in.size(); ++i) feed(body_.inputs[i], in[i]);
    // A loop that the values at hand would not enter (no detection to loop over) keeps its carried values' shapes,
    // and its body need not fit them: it is set up again when it runs.
    const bool enters = (!attrs_.get_bool("has_trip_count") || in[0]->data()->get<float>()[0] > 0.f) &&
                        (!attrs_.get_bool("has_condition") || in[1]->data()->get<float>()[0] != 0.f);
    try {
      run_or_setup(body_.outputs);
    } catch (const Error&) {
      if (enters) throw;
    }
    // The scan outputs' length is known when the loop has run: one iteration stands in for it.
    for (size_t k = 0; k < carried(); ++k)
      out[k]->reshape(enters ? body_.outputs[1 + k]->shape() : in[2 + k]->shape(), true);
    for (size_t j = 0; j < scans(); ++j)
      out[carried() + j]->reshape(stacked(1, body_.outputs[1 + carried() + j]->shape()), true);
  }

  static Shape stacked(int64_t n, const Shape& item) {
    Shape s{n};
    s.insert(s.end(), item.begin(), item.end());
    return s;
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const bool has_trip = attrs_.get_bool("has_trip_count"), has_cond = attrs_.get_bool("has_condition");
    const double trip = in[0]->data()->get<float>()[0];
    bool go = !has_cond || in[1]->data()->get<float>()[0] != 0.f;
    const int64_t limit = attrs_.get_int("max_iterations");
    for (size_t i = 2 + carried(); i < in.size(); ++i) feed(body_.inputs[i], in[i]);
    std::vector<VariablePtr> state;  // the carried values, from the inputs, then from each iteration
    for (size_t k = 0; k < carried(); ++k) state.push_back(in[2 + k]->unlinked());
    std::vector<std::vector<float>> scan_values(scans());
    std::vector<Shape> scan_shapes(scans());
    int64_t n = 0;
    for (; go && (!has_trip || double(n) < trip); ++n) {
      NN_CHECK(n < limit) << "Loop: still running after " << limit << " iterations (max_iterations): "
                          << (has_trip ? "its trip count is " + std::to_string(trip)
                                       : std::string("its condition never turned false"));
      feed_scalar(body_.inputs[0], float(n));
      feed_scalar(body_.inputs[1], go ? 1.f : 0.f);
      for (size_t k = 0; k < carried(); ++k) feed(body_.inputs[2 + k], state[k].get());
      forward_all(body_.outputs, /*clear_buffer=*/true);
      if (has_cond) go = body_.outputs[0]->data()->get<float>()[0] != 0.f;
      for (size_t k = 0; k < carried(); ++k) {
        state[k] = Variable::create(body_.outputs[1 + k]->shape());
        take(state[k].get(), body_.outputs[1 + k]);
      }
      for (size_t j = 0; j < scans(); ++j) append_scan(j, n, scan_values[j], scan_shapes[j]);
    }
    for (size_t k = 0; k < carried(); ++k) take(out[k], state[k]);
    for (size_t j = 0; j < scans(); ++j) {
      Variable* y = out[carried() + j];
      y->reshape(stacked(n, n ? scan_shapes[j] : body_.outputs[1 + carried() + j]->shape()), true);
      std::copy(scan_values[j].begin(), scan_values[j].end(), out_data(y));
    }
  }

  // Adds iteration n's scan value j; every iteration's must have the first one's shape.
  void append_scan(size_t j, int64_t n, std::vector<float>& values, Shape& shape) const {
    const VariablePtr& v = body_.outputs[1 + carried() + j];
    if (n == 0) shape = v->shape();
    NN_CHECK(v->shape() == shape) << "Loop: scan output " << j << " has shape " << to_string(v->shape())
                                  << " at iteration " << n << " and " << to_string(shape) << " before";
    NN_CHECK(int64_t(values.size()) + v->size() <= kMaxScanElements)
        << "Loop: scan output " << j << " would hold more than " << kMaxScanElements << " values";
    const float* s = v->data()->get<float>();
    values.insert(values.end(), s, s + v->size());
  }

  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

  static constexpr int64_t kMaxScanElements = int64_t(1) << 30;  // 4 GiB of floats per scan output
  SubGraph body_;
};

}  // namespace

void register_loop(OpRegistry& r) {
  register_cpu<Loop>(r, SchemaBuilder("Loop", "Unsupported, Special Use")
                            .doc("ONNX Loop: runs its body graph per iteration (inference only)")
                            .in("trip_count")
                            .in("condition")
                            .in_variadic("values")
                            .arg("num_carried", AttrType::kInt, int64_t(0))
                            .arg("num_scan", AttrType::kInt, int64_t(0))
                            .arg("has_trip_count", AttrType::kBool, true)
                            .arg("has_condition", AttrType::kBool, true)
                            .arg("max_iterations", AttrType::kInt, int64_t(10000000))
                            .out_variadic("y")
                            .build());
}
}  // namespace nn::ops
