// BatchMatmul: y[s] = op(a[s]) op(b[s]) over the leading (batch) dims, with the BLAS sgemm.
#include "ops/nn_layer/conv_core.hpp"

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class BatchMatmul : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& as = in[0]->shape();
    const Shape& bs = in[1]->shape();
    NN_CHECK(as.size() >= 2 && bs.size() >= 2)
        << "BatchMatmul: inputs must have at least 2 dimensions, got a " << to_string(as) << " and b "
        << to_string(bs);
    ta_ = attrs_.get_bool("transpose_a");
    tb_ = attrs_.get_bool("transpose_b");
    rows_a_ = as[as.size() - 2], cols_a_ = as.back();
    rows_b_ = bs[bs.size() - 2], cols_b_ = bs.back();
    m_ = ta_ ? cols_a_ : rows_a_;
    k_ = ta_ ? rows_a_ : cols_a_;
    n_ = tb_ ? rows_b_ : cols_b_;
    const int64_t kb = tb_ ? cols_b_ : rows_b_;
    samples_ = shape_size(as, 0, as.size() - 2);
    NN_CHECK(samples_ == shape_size(bs, 0, bs.size() - 2))
        << "BatchMatmul: batch sizes of a " << to_string(as) << " and b " << to_string(bs) << " differ";
    NN_CHECK(k_ == kb) << "BatchMatmul: reduction sizes differ (" << k_ << " vs " << kb << ") for a "
                       << to_string(as) << " (transpose_a " << ta_ << ") and b " << to_string(bs)
                       << " (transpose_b " << tb_ << ")";
    Shape ys(as.begin(), as.end() - 2);
    ys.push_back(m_);
    ys.push_back(n_);
    out[0]->reshape(ys, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* a = in_data(in[0]);
    const float* b = in_data(in[1]);
    float* y = out_data(out[0]);
    for (int64_t s = 0; s < samples_; ++s)
      sgemm(ta_, tb_, int(m_),
                  int(n_), int(k_), 1.f, a + s * rows_a_ * cols_a_, int(cols_a_), b + s * rows_b_ * cols_b_,
                  int(cols_b_), 0.f, y + s * m_ * n_, int(n_));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    const int64_t sa = rows_a_ * cols_a_, sb = rows_b_ * cols_b_, sy = m_ * n_;
    if (prop[0]) {
      const float* b = in_data(in[1]);
      float* da = in_grad_zeroed(in[0], accum[0]);
      for (int64_t s = 0; s < samples_; ++s) {
        if (!ta_)  // da (m x k) += dy (m x n) . op(b)^T
          sgemm(false, !tb_, int(m_), int(k_), int(n_),
                      1.f, dy + s * sy, int(n_), b + s * sb, int(cols_b_), 1.f, da + s * sa, int(cols_a_));
        else  // da (k x m) += op(b) . dy^T
          sgemm(tb_, true, int(k_), int(m_), int(n_),
                      1.f, b + s * sb, int(cols_b_), dy + s * sy, int(n_), 1.f, da + s * sa, int(cols_a_));
      }
    }
    if (prop[1]) {
      const float* a = in_data(in[0]);
      float* db = in_grad_zeroed(in[1], accum[1]);
      for (int64_t s = 0; s < samples_; ++s) {
        if (!tb_)  // db (k x n) += op(a)^T . dy
          sgemm(!ta_, false, int(k_), int(n_), int(m_),
                      1.f, a + s * sa, int(cols_a_), dy + s * sy, int(n_), 1.f, db + s * sb, int(cols_b_));
        else  // db (n x k) += dy^T . op(a)
          sgemm(true, ta_, int(n_), int(k_), int(m_),
                      1.f, dy + s * sy, int(n_), a + s * sa, int(cols_a_), 1.f, db + s * sb, int(cols_b_));
      }
    }
  }

 private:
  bool ta_ = false, tb_ = false;
  int64_t rows_a_ = 0, cols_a_ = 0, rows_b_ = 0, cols_b_ = 0, m_ = 0, k_ = 0, n_ = 0, samples_ = 1;
};

}  // namespace

void register_batch_matmul(OpRegistry& r) {
  register_cpu<BatchMatmul>(r, SchemaBuilder("BatchMatmul", "Array Manipulation")
                                   .doc("batched matrix product of the last two axes")
                                   .in("a")
                                   .in("b")
                                   .arg("transpose_a", AttrType::kBool, AttrValue(false))
                                   .arg("transpose_b", AttrType::kBool, AttrValue(false))
                                   .out("y")
                                   .build());
}

}  // namespace nn::ops
