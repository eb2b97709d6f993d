// Shared convolution machinery: N-D geometry, im2col/col2im, and a GEMM engine used by every conv-like op.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

// C = alpha * op(A) * op(B) + beta * C, row-major (thin wrapper over cblas_sgemm).
void sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
           const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

// Forces OpenBLAS to one thread while alive (for GEMMs called from inside an OpenMP loop).
class BlasSingleThread {
 public:
  BlasSingleThread();
  ~BlasSingleThread();
  BlasSingleThread(const BlasSingleThread&) = delete;
  BlasSingleThread& operator=(const BlasSingleThread&) = delete;

 private:
  int saved_;
};

// pad/stride/dilation of a convolution with `spatial` dims; absent arguments take nnabla's defaults.
struct ConvArgs {
  Shape pad, stride, dilation;
};
ConvArgs read_conv_args(const Attrs& attrs, size_t spatial, const std::string& fn);

// One sample of a convolution seen from the im2col side: `channels` input maps of `in` spatial shape, a
// `kernel`, and the output spatial shape. Column matrix: (channels * kernel_size, out_size).
struct ConvGeometry {
  int64_t channels = 0;
  Shape in, kernel, pad, stride, dilation, out;
  int64_t in_size = 1, kernel_size = 1, out_size = 1;
  bool identity_col = false;  // 1x1 kernel, stride 1, no pad: the column matrix is the input itself

  // Fills in/out sizes from the fields above (out must be set).
  void finalize();
  int64_t col_rows() const { return channels * kernel_size; }
  // Floating-point operations of the whole convolution (multiply and add counted apart).
  double flops(int64_t out_channels, int64_t group, int64_t batch) const {
    double f = 2.0 * double(batch) * double(out_channels) * double(channels / group);
    for (size_t d = 0; d < out.size(); ++d) f *= double(out[d]) * double(kernel[d]);
    return f;
  }
};
// Output size of a convolution along one axis (may be <= 0 for invalid configurations).
int64_t conv_out_size(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation);

// col (channels*K, out_size) from x (channels, in...): zero where the kernel reads padding.
void im2col(const ConvGeometry& g, const float* x, float* col);
// dx (channels, in...) += fold of col: the adjoint of im2col.
void col2im_add(const ConvGeometry& g, const float* col, float* dx);

// Runs a grouped convolution over a batch with per-thread column buffers:
// y[b] (OC, O) = W (OC, C/g * K) * col(x[b]) per group, and the matching backward products.
// `x`-side arrays are (batch, channels, in...), `y`-side arrays are (batch, out_channels, out...).
class ConvEngine {
 public:
  // Below this many FLOPs a convolution of a network run once keeps to im2col + GEMM (single_run.hpp).
  static constexpr double kSingleRunPlainFlops = 4e6;

  void setup(const ConvGeometry& g, int64_t out_channels, int64_t group, int64_t batch);
  const ConvGeometry& geometry() const { return g_; }
  // Whether forward and backward run on oneDNN's primitives (built at their first use).
  bool uses_dnnl() { return use_dnnl(); }

  // y = conv(x, w); y is overwritten (accum false) or added to.
  void forward(const float* x, const float* w, float* y, bool accum, uint64_t w_version = 0);
  // dx += conv_transpose(dy, w) (dx must hold the value to add to: zero it first to overwrite).
  void backward_data_add(const float* dy, const float* w, float* dx);
  // dw = (accum ? dw : 0) + sum_b dy[b] * col(x[b])^T.
  void backward_weight(const float* x, const float* dy, float* dw, bool accum);
  // Both products above in one pass over the batch (x and w unchanged); dx is added to (accum_x) or written.
  void backward_both(const float* x, const float* w, const float* dy, float* dx, bool accum_x, float* dw,
                     bool accum_w);

 private:
  int threads_for_batch() const;
  // Builds the oneDNN primitives on first use when the geometry wants them; true when they exist.
  bool use_dnnl();
  float* col_buffer(int thread);
  void sample_weight_grad(const float* xb, const float* dyb, float* col, float* dw_acc) const;
  void sample_data_grad(const float* dyb, const float* w, float* col, float* dxb) const;

  ConvGeometry g_;
  int64_t oc_ = 0, group_ = 1, batch_ = 0;
  int64_t x_stride_ = 0, y_stride_ = 0;
  std::vector<std::vector<float>> cols_;      // one column buffer per thread
  std::vector<std::vector<float>> dw_parts_;  // per-thread weight-gradient partial sums
  std::shared_ptr<class DnnlConv> dnnl_;      // oneDNN primitives for this geometry, when built with it
  bool dnnl_wanted_ = false;                  // dnnl_ is still to be built (at first use)
  std::vector<float> scratch_;                // oneDNN results that are added to an output
};

// False when NN_DNNL=0 is in the environment: every convolution then runs on the im2col + GEMM engine (for
// comparisons), the inference path included.
bool dnnl_enabled();

// A switch of the convolution paths kept for comparisons (NN_DNNL, NN_CONV_CHUNKS, NN_CONV_WINOGRAD): on
// unless its environment variable is "0".
bool env_switch_on(const char* name);

// Adds (or writes, accum false) the per-channel sum of dy (batch, channels, spatial) into db.
void bias_backward(const float* dy, int64_t batch, int64_t channels, int64_t spatial, float* db, bool accum);
// y (batch, channels, spatial) += b[channel].
void bias_forward(const float* b, int64_t batch, int64_t channels, int64_t spatial, float* y);

}  // namespace nn::ops
