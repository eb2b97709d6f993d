// Embed: y[i, ...] = W[x[i], ...] for integer indices x (stored as float); gradient flows to W only.
#include <cstring>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
class Embed : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override { return i == 1 && j == 0; }
  std::vector<std::pair<int, int64_t>> index_inputs() const override { return {{0, rows_}}; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& w = in[1]->shape();
    NN_CHECK(w.size() >= 1) << "Embed: weight " << to_string(w) << " must be (n_inputs, ...)";
    Shape y = in[0]->shape();
    y.insert(y.end(), w.begin() + 1, w.end());
    row_ = shape_size(w, 1, w.size());
    rows_ = w[0];
    out[0]->reshape(y, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* w = in_data(in[1]);
    float* y = out_data(out[0]);
    const int64_t n = in[0]->size();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = index(x[i], in[1]->shape()[0]);
      std::memcpy(y + i * row_, w + k * row_, size_t(row_) * sizeof(float));
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    NN_CHECK(!prop[0]) << "Embed: the index input x cannot receive a gradient";
    if (!prop[1]) return;
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    float* dw = in_grad_zeroed(in[1], accum[1]);
    const int64_t n = in[0]->size();
    for (int64_t i = 0; i < n; ++i) {
      float* d = dw + index(x[i], in[1]->shape()[0]) * row_;
      const float* g = dy + i * row_;
#pragma omp simd
      for (int64_t j = 0; j < row_; ++j) d[j] += g[j];
    }
  }

 private:
  static int64_t index(float v, int64_t n) {
    const auto k = int64_t(v);
    NN_CHECK(k >= 0 && k < n) << "Embed: index " << v << " out of range [0, " << n << ")";
    return k;
  }
  int64_t row_ = 0;
  int64_t rows_ = 0;  // n_inputs: indices stay below it
};
}  // namespace

void register_embed(OpRegistry& r) {
  register_cpu<Embed>(r, SchemaBuilder("Embed", "Neural Network Layer")
                             .doc("look up rows of W by integer index")
                             .in("x0")
                             .in_param("w")
                             .out("y")
                             .build());
}

}  // namespace nn::ops
