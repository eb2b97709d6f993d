// Convolution machinery: im2col/col2im over any number of spatial axes and the batched GEMM engine.
#include "ops/nn_layer/conv_core.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "nn/core/error.hpp"
#include "nn/core/single_run.hpp"
#include "ops/detail/blas.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/detail/thread_scope.hpp"
#ifdef NN_WITH_DNNL
#include "ops/nn_layer/conv_dnnl.hpp"
#endif

namespace nn::ops {

void sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
           const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {  // BLAS leaves C untouched only for beta == 1; make the k == 0 case explicit
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = beta == 0.f ? 0.f : beta * c[i * ldc + j];
    return;
  }
  ThreadScope threads(threads_for_flops(2.0 * double(m) * double(n) * double(k)));
  blas_sgemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

BlasSingleThread::BlasSingleThread() : saved_(blas_get_threads()) {
  if (saved_ != 1) blas_set_threads(1);
}
BlasSingleThread::~BlasSingleThread() {
  if (saved_ != 1) blas_set_threads(saved_);
}

ConvArgs read_conv_args(const Attrs& attrs, size_t spatial, const std::string& fn) {
  ConvArgs a;
  a.pad = attrs.get_shape_or("pad", Shape(spatial, 0));
  a.stride = attrs.get_shape_or("stride", Shape(spatial, 1));
  a.dilation = attrs.get_shape_or("dilation", Shape(spatial, 1));
  auto check = [&](const Shape& v, const char* name, int64_t min) {
    NN_CHECK(v.size() == spatial) << fn << ": " << name << " " << to_string(v) << " must have " << spatial
                                  << " entries (one per spatial axis)";
    for (int64_t e : v) NN_CHECK(e >= min) << fn << ": " << name << " " << to_string(v) << " must be >= " << min;
  };
  check(a.pad, "pad", 0);
  check(a.stride, "stride", 1);
  check(a.dilation, "dilation", 1);
  return a;
}

int64_t conv_out_size(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation) {
  const int64_t span = dilation * (kernel - 1) + 1;
  const int64_t padded = in + 2 * pad;
  if (padded < span) return 0;
  return (padded - span) / stride + 1;
}

void ConvGeometry::finalize() {
  in_size = shape_size(in);
  kernel_size = shape_size(kernel);
  out_size = shape_size(out);
  identity_col = true;
  for (size_t d = 0; d < in.size(); ++d)
    identity_col &= kernel[d] == 1 && stride[d] == 1 && pad[d] == 0 && out[d] == in[d];
}

namespace {
// Visits the column matrix as segments: one per (row, output position over all but the last spatial axis).
// seg(dst_offset, valid, src_offset, base) where the segment covers the last output axis, reading input
// element src_offset + ow * stride_last + base when 0 <= ow * stride_last + base < in_last.
template <class Seg>
void for_each_segment(const ConvGeometry& g, Seg&& seg) {
  const size_t nd = g.in.size();
  const size_t last = nd - 1;
  const int64_t ol = g.out[last];
  const int64_t outer_n = ol == 0 ? 0 : g.out_size / ol;
  std::vector<int64_t> in_strides(nd, 1), kk(nd), oo(nd);
  for (size_t d = last; d-- > 0;) in_strides[d] = in_strides[d + 1] * g.in[d + 1];
  for (int64_t c = 0; c < g.channels; ++c) {
    for (int64_t k = 0; k < g.kernel_size; ++k) {
      int64_t rest = k;
      for (size_t d = nd; d-- > 0;) {
        kk[d] = rest % g.kernel[d];
        rest /= g.kernel[d];
      }
      const int64_t row = (c * g.kernel_size + k) * g.out_size;
      const int64_t base = kk[last] * g.dilation[last] - g.pad[last];
      for (int64_t outer = 0; outer < outer_n; ++outer) {
        int64_t r = outer, off = c * g.in_size;
        bool valid = true;
        for (size_t d = last; d-- > 0;) {
          const int64_t o = r % g.out[d];
          r /= g.out[d];
          const int64_t i = o * g.stride[d] - g.pad[d] + kk[d] * g.dilation[d];
          valid &= i >= 0 && i < g.in[d];
          off += i * in_strides[d];
        }
        seg(row + outer * ol, valid, off, base);
      }
    }
  }
}

// Output positions [lo, hi) along the last axis whose input index ow * s + base lies in [0, n).
inline void valid_range(int64_t ol, int64_t s, int64_t base, int64_t n, int64_t& lo, int64_t& hi) {
  lo = base >= 0 ? 0 : (-base + s - 1) / s;
  hi = n - 1 - base < 0 ? 0 : std::min(ol, (n - 1 - base) / s + 1);
  if (hi < lo) hi = lo;
  lo = std::min(lo, ol);
}
}  // namespace

namespace {
// 1-D and 2-D geometry as (H, W) with H = 1 for 1-D: the common case, without per-segment index math.
struct Plane {
  int64_t h, w, kh, kw, oh, ow, ph, pw, sh, sw, dh, dw;
};
bool as_plane(const ConvGeometry& g, Plane& p) {
  const size_t nd = g.in.size();
  if (nd > 2) return false;
  const size_t b = nd - 1;  // the last axis; the first one is 0 in 2-D
  const bool two = nd == 2;
  p = {two ? g.in[0] : 1,  g.in[b],  two ? g.kernel[0] : 1, g.kernel[b], two ? g.out[0] : 1,      g.out[b],
       two ? g.pad[0] : 0, g.pad[b], two ? g.stride[0] : 1, g.stride[b], two ? g.dilation[0] : 1, g.dilation[b]};
  return true;
}

// Visits rows (c, ki, kj) with the valid output-column range [lo, hi) of that kj, then each output row oh
// with the offset of input element (ih, base) and whether row ih exists (else the output row reads padding).
template <class RowFn>
void for_each_plane_row(const ConvGeometry& g, const Plane& p, RowFn&& fn) {
  for (int64_t c = 0; c < g.channels; ++c)
    for (int64_t ki = 0; ki < p.kh; ++ki)
      for (int64_t kj = 0; kj < p.kw; ++kj) {
        const int64_t row = ((c * p.kh + ki) * p.kw + kj) * g.out_size;
        const int64_t base = kj * p.dw - p.pw;
        int64_t lo, hi;
        valid_range(p.ow, p.sw, base, p.w, lo, hi);
        for (int64_t oh = 0; oh < p.oh; ++oh) {
          const int64_t ih = oh * p.sh - p.ph + ki * p.dh;
          fn(row + oh * p.ow, ih >= 0 && ih < p.h, (c * p.h + ih) * p.w + base, lo, hi);
        }
      }
}
}  // namespace

void im2col(const ConvGeometry& g, const float* x, float* col) {
  Plane p;
  if (as_plane(g, p)) {
    const int64_t ow = p.ow, sw = p.sw;
    for_each_plane_row(g, p, [&](int64_t dst_off, bool valid, int64_t src_off, int64_t lo, int64_t hi) {
      float* dst = col + dst_off;
      if (!valid) {
        std::fill(dst, dst + ow, 0.f);
        return;
      }
      const float* src = x + src_off;
      for (int64_t o = 0; o < lo; ++o) dst[o] = 0.f;
      if (sw == 1) {
#pragma omp simd
        for (int64_t o = lo; o < hi; ++o) dst[o] = src[o];
      } else {
        for (int64_t o = lo; o < hi; ++o) dst[o] = src[o * sw];
      }
      for (int64_t o = hi; o < ow; ++o) dst[o] = 0.f;
    });
    return;
  }
  const size_t last = g.in.size() - 1;
  const int64_t ol = g.out[last], s = g.stride[last], n = g.in[last];
  for_each_segment(g, [&](int64_t dst_off, bool valid, int64_t src_off, int64_t base) {
    float* dst = col + dst_off;
    if (!valid) {
      std::fill(dst, dst + ol, 0.f);
      return;
    }
    int64_t lo, hi;
    valid_range(ol, s, base, n, lo, hi);
    std::fill(dst, dst + lo, 0.f);
    const float* src = x + src_off + base;
    if (s == 1) {
      std::memcpy(dst + lo, src + lo, size_t(hi - lo) * sizeof(float));
    } else {
      for (int64_t o = lo; o < hi; ++o) dst[o] = src[o * s];
    }
    std::fill(dst + hi, dst + ol, 0.f);
  });
}

void col2im_add(const ConvGeometry& g, const float* col, float* dx) {
  Plane p;
  if (as_plane(g, p)) {
    const int64_t sw = p.sw;
    for_each_plane_row(g, p, [&](int64_t src_off, bool valid, int64_t dst_off, int64_t lo, int64_t hi) {
      if (!valid) return;
      const float* src = col + src_off;
      float* dst = dx + dst_off;
      if (sw == 1) {
#pragma omp simd
        for (int64_t o = lo; o < hi; ++o) dst[o] += src[o];
      } else {
        for (int64_t o = lo; o < hi; ++o) dst[o * sw] += src[o];
      }
    });
    return;
  }
  const size_t last = g.in.size() - 1;
  const int64_t ol = g.out[last], s = g.stride[last], n = g.in[last];
  for_each_segment(g, [&](int64_t src_off, bool valid, int64_t dst_off, int64_t base) {
    if (!valid) return;
    int64_t lo, hi;
    valid_range(ol, s, base, n, lo, hi);
    const float* src = col + src_off;
    float* dst = dx + dst_off + base;
    if (s == 1) {
#pragma omp simd
      for (int64_t o = lo; o < hi; ++o) dst[o] += src[o];
    } else {
      for (int64_t o = lo; o < hi; ++o) dst[o * s] += src[o];
    }
  });
}

bool env_switch_on(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr || std::string(v) != "0";
}

bool dnnl_enabled() {
  static const bool enabled = env_switch_on("NN_DNNL");
  return enabled;
}

void ConvEngine::setup(const ConvGeometry& g, int64_t out_channels, int64_t group, int64_t batch) {
  g_ = g;
  g_.finalize();
  oc_ = out_channels;
  group_ = group;
  batch_ = batch;
  x_stride_ = g_.channels * g_.in_size;
  y_stride_ = oc_ * g_.out_size;
  dnnl_.reset();
  // The primitives are built at the first forward or backward (a setup may only want the output shape).
  // oneDNN takes every layer it has a kernel for, LeNet's one-channel first layer included: with its weights
  // kept reordered (DnnlConv), LeNet's training iteration (batch 64) ran 14 % faster than with im2col there, and
  // LeNet b1 inference 8 %. Depthwise layers (MobileNet/EfficientNet) get oneDNN's depthwise kernels, where
  // im2col ran one tiny GEMM per channel.
  // A 1x1 kernel over a 1x1 map (squeeze-excite's layers) is a matrix-vector product: one small GEMM beats
  // the primitive's reorders.
  dnnl_wanted_ = !(g_.identity_col && g_.in_size == 1);
  // A network run once (`nncli infer`, single_run.hpp) does not win back oneDNN's setup on a small layer, which
  // builds its code at the first run: LeNet's two convolutions (0.7 MFLOP each) on the plain path made a one-shot
  // LeNet infer 14.0 -> 12.4 ms wall (means of 3 x 40 alternating runs). They take 10.6 and 21 us there (5.3 and
  // 5.2 us on oneDNN once built): 4 MFLOP at the slower rate is 0.12 ms.
  if (single_run() && g_.flops(oc_, group_, batch_) < kSingleRunPlainFlops) dnnl_wanted_ = false;
}

bool ConvEngine::use_dnnl() {
#ifdef NN_WITH_DNNL
  if (!dnnl_ && dnnl_wanted_ && dnnl_enabled()) dnnl_ = DnnlConv::create(g_, oc_, group_, batch_);
  dnnl_wanted_ = false;
  return dnnl_ != nullptr;
#else
  return false;
#endif
}

int ConvEngine::threads_for_batch() const {
  if (batch_ < 2) return 1;
  const double flops = 2.0 * double(oc_) * double(g_.col_rows() / group_) * double(g_.out_size);
  return int(std::min<int64_t>(threads_for_flops(flops * double(batch_)), batch_));
}

float* ConvEngine::col_buffer(int thread) { return cols_[size_t(thread)].data(); }

void ConvEngine::sample_weight_grad(const float* xb, const float* dyb, float* col, float* dw_acc) const {
  const float* c = xb;
  if (!g_.identity_col) {
    im2col(g_, xb, col);
    c = col;
  }
  const int64_t ocg = oc_ / group_, ckg = g_.col_rows() / group_, o = g_.out_size;
  for (int64_t gi = 0; gi < group_; ++gi)
    sgemm(false, true, ocg, ckg, o, 1.f, dyb + gi * ocg * o, o, c + gi * ckg * o, o, 1.f, dw_acc + gi * ocg * ckg,
          ckg);
}

void ConvEngine::sample_data_grad(const float* dyb, const float* w, float* col, float* dxb) const {
  const int64_t ocg = oc_ / group_, ckg = g_.col_rows() / group_, o = g_.out_size;
  if (g_.identity_col) {
    for (int64_t gi = 0; gi < group_; ++gi)
      sgemm(true, false, ckg, o, ocg, 1.f, w + gi * ocg * ckg, ckg, dyb + gi * ocg * o, o, 1.f, dxb + gi * ckg * o,
            o);
    return;
  }
  for (int64_t gi = 0; gi < group_; ++gi)
    sgemm(true, false, ckg, o, ocg, 1.f, w + gi * ocg * ckg, ckg, dyb + gi * ocg * o, o, 0.f, col + gi * ckg * o,
          o);
  col2im_add(g_, col, dxb);
}

namespace {
// Makes sure `bufs` holds n buffers of at least `size` floats (allocations happen outside parallel regions).
void ensure_buffers(std::vector<std::vector<float>>& bufs, int n, int64_t size) {
  if (int(bufs.size()) < n) bufs.resize(size_t(n));
  for (int t = 0; t < n; ++t)
    if (int64_t(bufs[size_t(t)].size()) < size) bufs[size_t(t)].resize(size_t(size));
}
}  // namespace

void ConvEngine::forward(const float* x, const float* w, float* y, bool accum, uint64_t w_version) {
#ifdef NN_WITH_DNNL
  if (use_dnnl()) {
    if (!accum) return dnnl_->forward(x, w, y, w_version);
    scratch_.resize(size_t(batch_ * y_stride_));
    dnnl_->forward(x, w, scratch_.data(), w_version);
    return add_into(y, scratch_.data(), batch_ * y_stride_);
  }
#endif
  const int nt = threads_for_batch();
  if (!g_.identity_col) ensure_buffers(cols_, nt, g_.col_rows() * g_.out_size);
  const int64_t ocg = oc_ / group_, ckg = g_.col_rows() / group_, o = g_.out_size;
  const float beta = accum ? 1.f : 0.f;
  auto one = [&](int64_t b, float* col) {
    const float* xb = x + b * x_stride_;
    const float* c = xb;
    if (!g_.identity_col) {
      im2col(g_, xb, col);
      c = col;
    }
    float* yb = y + b * y_stride_;
    for (int64_t gi = 0; gi < group_; ++gi)
      sgemm(false, false, ocg, o, ckg, 1.f, w + gi * ocg * ckg, ckg, c + gi * ckg * o, o, beta, yb + gi * ocg * o,
            o);
  };
  if (nt == 1) {
    for (int64_t b = 0; b < batch_; ++b) one(b, g_.identity_col ? nullptr : col_buffer(0));
    return;
  }
  BlasSingleThread single;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t b = 0; b < batch_; ++b) one(b, g_.identity_col ? nullptr : col_buffer(omp_get_thread_num()));
}

void ConvEngine::backward_data_add(const float* dy, const float* w, float* dx) {
  backward_both(nullptr, w, dy, dx, true, nullptr, false);
}

void ConvEngine::backward_weight(const float* x, const float* dy, float* dw, bool accum) {
  backward_both(x, nullptr, dy, nullptr, false, dw, accum);
}

void ConvEngine::backward_both(const float* x, const float* w, const float* dy, float* dx, bool accum_x, float* dw,
                               bool accum_w) {
#ifdef NN_WITH_DNNL
  if (use_dnnl()) {
    const int64_t wsize = oc_ * g_.col_rows() / group_, xsize = batch_ * x_stride_;
    scratch_.resize(size_t((dx && accum_x ? xsize : 0) + (dw && accum_w ? wsize : 0)));
    float* dx_out = dx && accum_x ? scratch_.data() : dx;
    float* dw_out = dw && accum_w ? scratch_.data() + (dx && accum_x ? xsize : 0) : dw;
    dnnl_->backward(x, w, dy, dx_out, dw_out);
    if (dx && accum_x) add_into(dx, dx_out, xsize);
    if (dw && accum_w) add_into(dw, dw_out, wsize);
    return;
  }
#endif
  if (dx && !accum_x) std::fill(dx, dx + batch_ * x_stride_, 0.f);
  float* dx_add = dx;
  const int nt = threads_for_batch();
  const bool need_col = !g_.identity_col;
  if (need_col) ensure_buffers(cols_, nt, g_.col_rows() * g_.out_size);
  const int64_t wsize = oc_ * g_.col_rows() / group_;
  if (nt == 1) {
    if (dw && !accum_w) std::fill(dw, dw + wsize, 0.f);
    float* col = need_col ? col_buffer(0) : nullptr;
    for (int64_t b = 0; b < batch_; ++b) {
      if (dw) sample_weight_grad(x + b * x_stride_, dy + b * y_stride_, col, dw);
      if (dx_add) sample_data_grad(dy + b * y_stride_, w, col, dx_add + b * x_stride_);
    }
    return;
  }
  if (dw) {
    ensure_buffers(dw_parts_, nt, wsize);
    for (int t = 0; t < nt; ++t)
      std::fill(dw_parts_[size_t(t)].begin(), dw_parts_[size_t(t)].begin() + wsize, 0.f);
  }
  {
    BlasSingleThread single;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t b = 0; b < batch_; ++b) {
      const int t = omp_get_thread_num();
      float* col = need_col ? col_buffer(t) : nullptr;
      if (dw) sample_weight_grad(x + b * x_stride_, dy + b * y_stride_, col, dw_parts_[size_t(t)].data());
      if (dx_add) sample_data_grad(dy + b * y_stride_, w, col, dx_add + b * x_stride_);
    }
  }
  if (dw) {
    for (int64_t i = 0; i < wsize; ++i) {
      float s = accum_w ? dw[i] : 0.f;
      for (int t = 0; t < nt; ++t) s += dw_parts_[size_t(t)][size_t(i)];
      dw[i] = s;
    }
  }
}

void bias_forward(const float* b, int64_t batch, int64_t channels, int64_t spatial, float* y) {
  const int64_t rows = batch * channels;
  auto body = [&](int64_t r) {
    const float v = b[r % channels];
    float* p = y + r * spatial;
#pragma omp simd
    for (int64_t i = 0; i < spatial; ++i) p[i] += v;
  };
  if (rows * spatial >= (1 << 16)) {
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) body(r);
  } else {
    for (int64_t r = 0; r < rows; ++r) body(r);
  }
}

void bias_backward(const float* dy, int64_t batch, int64_t channels, int64_t spatial, float* db, bool accum) {
  auto body = [&](int64_t c) {
    double s = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const float* p = dy + (b * channels + c) * spatial;
      float part = 0.f;
#pragma omp simd reduction(+ : part)
      for (int64_t i = 0; i < spatial; ++i) part += p[i];
      s += part;
    }
    db[c] = accum ? db[c] + float(s) : float(s);
  };
  if (batch * channels * spatial >= (1 << 16) && channels > 1) {
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < channels; ++c) body(c);
  } else {
    for (int64_t c = 0; c < channels; ++c) body(c);
  }
}

}  // namespace nn::ops
