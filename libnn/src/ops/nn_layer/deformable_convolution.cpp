// DeformableConvolution: grouped 2-D convolution that samples x bilinearly (zero outside) at learned offsets,
// optionally modulated by a mask (deformable convolution v1/v2), channel-first; im2col + SGEMM.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {
namespace {

// Bilinear sample of an (height, width) plane at fractional (h, w); corners outside the plane read as zero.
struct BilinearPoint {
  int64_t h0 = 0, w0 = 0;    // top-left corner
  float fh = 0.f, fw = 0.f;  // fractional parts
  bool inside = false;       // some corner lies in the plane (-1 < h < height, -1 < w < width)

  BilinearPoint(float h, float w, int64_t height, int64_t width) {
    inside = h > -1.f && w > -1.f && h < float(height) && w < float(width);
    const float hf = std::floor(h), wf = std::floor(w);
    h0 = int64_t(hf), w0 = int64_t(wf), fh = h - hf, fw = w - wf;
  }
  // Calls f(element index, weight of the corner, d weight / dh, d weight / dw) for corners in the plane.
  template <class F>
  void for_each_corner(int64_t height, int64_t width, F&& f) const {
    if (!inside) return;
    for (int dy = 0; dy < 2; ++dy) {
      const int64_t y = h0 + dy;
      if (y < 0 || y >= height) continue;
      const float wy = dy ? fh : 1.f - fh, dwy = dy ? 1.f : -1.f;
      for (int dx = 0; dx < 2; ++dx) {
        const int64_t x = w0 + dx;
        if (x < 0 || x >= width) continue;
        const float wx = dx ? fw : 1.f - fw, dwx = dx ? 1.f : -1.f;
        f(y * width + x, wy * wx, dwy * wx, wy * dwx);
      }
    }
  }
};

class DeformableConvolution : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape &xs = in[0]->shape(), &ws = in[1]->shape(), &os = in[2]->shape();
    NN_CHECK(!attrs_.get_bool("channel_last"))
        << "DeformableConvolution: channel_last=true is not supported on CPU (input " << to_string(xs) << ")";
    const int64_t base_axis = attrs_.get_int("base_axis");
    NN_CHECK(base_axis >= 0 && base_axis + 3 == int64_t(xs.size()))
        << "DeformableConvolution: only 2-D deformable convolution is supported: input " << to_string(xs)
        << " with base_axis " << base_axis << " must have base_axis + 3 dims";
    NN_CHECK(ws.size() == 4) << "DeformableConvolution: weight " << to_string(ws)
                             << " must be (out_channels, in_channels/group, kernel_h, kernel_w)";
    const size_t ba = size_t(base_axis);
    batch_ = shape_size(xs, 0, ba);
    c_ = xs[ba], h_ = xs[ba + 1], w_ = xs[ba + 2];
    oc_ = ws[0], kh_ = ws[2], kw_ = ws[3];
    group_ = attrs_.get_int("group");
    dg_ = attrs_.get_int("deformable_group");
    NN_CHECK(group_ >= 1 && c_ % group_ == 0 && oc_ % group_ == 0 && ws[1] * group_ == c_)
        << "DeformableConvolution: input " << to_string(xs) << " and weight " << to_string(ws)
        << " do not match group " << group_;
    NN_CHECK(dg_ >= 1 && c_ % dg_ == 0 && oc_ % dg_ == 0)
        << "DeformableConvolution: deformable_group " << dg_ << " must divide the input channels " << c_
        << " and the output channels " << oc_;
    ConvArgs args = read_conv_args(attrs_, 2, "DeformableConvolution");
    pad_ = args.pad, stride_ = args.stride, dil_ = args.dilation;
    oh_ = conv_out_size(h_, kh_, pad_[0], stride_[0], dil_[0]);
    ow_ = conv_out_size(w_, kw_, pad_[1], stride_[1], dil_[1]);
    NN_CHECK(oh_ > 0 && ow_ > 0) << "DeformableConvolution: input " << to_string(xs) << " (pad " << to_string(pad_)
                                 << ", dilation " << to_string(dil_) << ") is smaller than the kernel "
                                 << to_string(ws);
    // Offsets and mask are read on the input grid at (oh * stride_h, ow * stride_w), as upstream.
    NN_CHECK((oh_ - 1) * stride_[0] < h_ && (ow_ - 1) * stride_[1] < w_)
        << "DeformableConvolution: pad " << to_string(pad_) << " too large for input " << to_string(xs)
        << ": offsets are read at output position * stride, which must lie inside the input";
    Shape plane_shape(xs.begin(), xs.begin() + base_axis);
    plane_shape.push_back(2 * dg_ * kh_ * kw_);
    plane_shape.insert(plane_shape.end(), {h_, w_});
    NN_CHECK(os == plane_shape) << "DeformableConvolution: offset " << to_string(os) << " must be "
                                << to_string(plane_shape) << " (2 * deformable_group * kernel_h * kernel_w "
                                << "channels over the input grid) for input " << to_string(xs);

    // A fourth input is the mask unless it is 1-D (then it is the bias), as upstream.
    mask_index_ = bias_index_ = -1;
    if (in.size() == 5) mask_index_ = 3, bias_index_ = 4;
    if (in.size() == 4) (in[3]->ndim() == 1 ? bias_index_ : mask_index_) = 3;
    if (mask_index_ >= 0) {
      plane_shape[ba] = dg_ * kh_ * kw_;
      NN_CHECK(in[3]->shape() == plane_shape)
          << "DeformableConvolution: mask " << to_string(in[3]->shape()) << " must be " << to_string(plane_shape)
          << " (deformable_group * kernel_h * kernel_w channels over the input grid)";
      NN_CHECK(pad_[0] < (kh_ + 1) / 2 || pad_[1] < (kw_ + 1) / 2)
          << "DeformableConvolution: pad " << to_string(pad_) << " puts the kernel centre " << to_string(ws)
          << " in the padding";
    }
    if (bias_index_ >= 0) {
      NN_CHECK(in[size_t(bias_index_)]->shape() == Shape{oc_})
          << "DeformableConvolution: bias " << to_string(in[size_t(bias_index_)]->shape()) << " must be (" << oc_
          << ",) for weight " << to_string(ws);
    }

    Shape ys(xs.begin(), xs.begin() + base_axis);
    ys.insert(ys.end(), {oc_, oh_, ow_});
    out[0]->reshape(ys, true);
  }

  int64_t kernel_size() const { return kh_ * kw_; }
  int64_t out_size() const { return oh_ * ow_; }
  int64_t in_size() const { return h_ * w_; }

  // Sampling point of kernel tap k at output pixel p in deformable group d of one sample; `mask` may be null.
  struct Tap {
    BilinearPoint point;
    float modulation;
    int64_t offset_h, offset_w, mask_at;  // element indices in the sample's offset and mask arrays
  };
  Tap tap(const float* offset, const float* mask, int64_t d, int64_t k, int64_t p) const {
    const int64_t i = k / kw_, j = k % kw_, hin = (p / ow_) * stride_[0], win = (p % ow_) * stride_[1];
    const int64_t grid = hin * w_ + win;
    const int64_t oh_at = ((d * kernel_size() + k) * 2) * in_size() + grid, ow_at = oh_at + in_size();
    const int64_t mask_at = (d * kernel_size() + k) * in_size() + grid;
    const float h = float(hin - pad_[0] + i * dil_[0]) + offset[oh_at];
    const float w = float(win - pad_[1] + j * dil_[1]) + offset[ow_at];
    return {BilinearPoint(h, w, h_, w_), mask ? mask[mask_at] : 1.f, oh_at, ow_at, mask_at};
  }

  // col (C * K, P): the modulated samples of one sample's x.
  void build_columns(const float* x, const float* offset, const float* mask, float* col) const {
    const int64_t k_size = kernel_size(), p_size = out_size(), per_dg = c_ / dg_;
    parallel_for(c_ * k_size, [&](int64_t row) {
      const int64_t c = row / k_size, k = row % k_size;
      const float* plane = x + c * in_size();
      for (int64_t p = 0; p < p_size; ++p) {
        const Tap t = tap(offset, mask, c / per_dg, k, p);
        float v = 0.f;
        t.point.for_each_corner(h_, w_, [&](int64_t at, float wt, float, float) { v += wt * plane[at]; });
        col[row * p_size + p] = v * t.modulation;
      }
    });
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float *x = in_data(in[0]), *w = in_data(in[1]), *offset = in_data(in[2]);
    const float* mask = mask_index_ >= 0 ? in_data(in[size_t(mask_index_)]) : nullptr;
    float* y = out_data(out[0]);
    const int64_t rows = c_ * kernel_size(), cg_k = rows / group_, ocg = oc_ / group_, p_size = out_size();
    col_.resize(size_t(rows * p_size));
    for (int64_t n = 0; n < batch_; ++n) {
      build_columns(x + n * c_ * in_size(), offset + n * offset_stride(),
                    mask ? mask + n * mask_stride() : nullptr, col_.data());
      float* yn = y + n * oc_ * p_size;
      for (int64_t g = 0; g < group_; ++g)
        sgemm(false, false, ocg, p_size, cg_k, 1.f, w + g * ocg * cg_k, cg_k, col_.data() + g * cg_k * p_size,
              p_size, 0.f, yn + g * ocg * p_size, p_size);
    }
    if (bias_index_ >= 0) bias_forward(in_data(in[size_t(bias_index_)]), batch_, oc_, p_size, y);
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float *x = in_data(in[0]), *w = in_data(in[1]), *offset = in_data(in[2]);
    const float* mask = mask_index_ >= 0 ? in_data(in[size_t(mask_index_)]) : nullptr;
    const float* dy = out_grad(out[0]);
    const int64_t rows = c_ * kernel_size(), cg_k = rows / group_, ocg = oc_ / group_, p_size = out_size();
    const bool prop_mask = mask_index_ >= 0 && prop[size_t(mask_index_)];
    float* dx = prop[0] ? in_grad_zeroed(in[0], accum[0]) : nullptr;
    float* dw = prop[1] ? in_grad_zeroed(in[1], accum[1]) : nullptr;
    float* doffset = prop[2] ? in_grad_zeroed(in[2], accum[2]) : nullptr;
    float* dmask = prop_mask ? in_grad_zeroed(in[size_t(mask_index_)], accum[size_t(mask_index_)]) : nullptr;
    if (bias_index_ >= 0 && prop[size_t(bias_index_)])
      bias_backward(dy, batch_, oc_, p_size, in_grad(in[size_t(bias_index_)], accum[size_t(bias_index_)]),
                    accum[size_t(bias_index_)]);
    col_.resize(size_t(rows * p_size));
    for (int64_t n = 0; n < batch_; ++n) {
      const float* xn = x + n * c_ * in_size();
      const float* offn = offset + n * offset_stride();
      const float* maskn = mask ? mask + n * mask_stride() : nullptr;
      const float* dyn = dy + n * oc_ * p_size;
      if (dw) {
        build_columns(xn, offn, maskn, col_.data());
        for (int64_t g = 0; g < group_; ++g)
          sgemm(false, true, ocg, cg_k, p_size, 1.f, dyn + g * ocg * p_size, p_size,
                col_.data() + g * cg_k * p_size, p_size, 1.f, dw + g * ocg * cg_k, cg_k);
      }
      if (!dx && !doffset && !dmask) continue;
      // dcol = W^T dy per group, then through the sampling to x, the offsets and the mask.
      for (int64_t g = 0; g < group_; ++g)
        sgemm(true, false, cg_k, p_size, ocg, 1.f, w + g * ocg * cg_k, cg_k, dyn + g * ocg * p_size, p_size, 0.f,
              col_.data() + g * cg_k * p_size, p_size);
      sampling_backward(xn, offn, maskn, col_.data(), dx ? dx + n * c_ * in_size() : nullptr,
                        doffset ? doffset + n * offset_stride() : nullptr,
                        dmask ? dmask + n * mask_stride() : nullptr);
    }
  }

  // One sample: dcol (C * K, P) to dx (C, H, W), doffset and dmask (null: skipped). Deformable groups touch
  // disjoint parts of all three, so they run in parallel.
  void sampling_backward(const float* x, const float* offset, const float* mask, const float* dcol, float* dx,
                         float* doffset, float* dmask) const {
    const int64_t k_size = kernel_size(), p_size = out_size(), per_dg = c_ / dg_;
    parallel_ranges(dg_, dg_ * per_dg * k_size * p_size, [&](int64_t begin, int64_t end, int) {
      for (int64_t d = begin; d < end; ++d)
        for (int64_t c = d * per_dg; c < (d + 1) * per_dg; ++c) {
          const float* plane = x + c * in_size();
          float* dplane = dx ? dx + c * in_size() : nullptr;
          for (int64_t k = 0; k < k_size; ++k)
            for (int64_t p = 0; p < p_size; ++p) {
              const float g = dcol[(c * k_size + k) * p_size + p];
              const Tap t = tap(offset, mask, d, k, p);
              float value = 0.f, dh = 0.f, dwd = 0.f;
              t.point.for_each_corner(h_, w_, [&](int64_t at, float wt, float dwt_h, float dwt_w) {
                if (dplane) dplane[at] += g * t.modulation * wt;
                value += wt * plane[at];
                dh += dwt_h * plane[at];
                dwd += dwt_w * plane[at];
              });
              if (doffset) {
                doffset[t.offset_h] += g * t.modulation * dh;
                doffset[t.offset_w] += g * t.modulation * dwd;
              }
              if (dmask) dmask[t.mask_at] += g * value;
            }
        }
    });
  }

  int64_t offset_stride() const { return 2 * dg_ * kernel_size() * in_size(); }
  int64_t mask_stride() const { return dg_ * kernel_size() * in_size(); }

 private:
  int64_t batch_ = 0, c_ = 0, h_ = 0, w_ = 0, oc_ = 0, kh_ = 0, kw_ = 0, oh_ = 0, ow_ = 0;
  int64_t group_ = 1, dg_ = 1;
  int mask_index_ = -1, bias_index_ = -1;
  Shape pad_, stride_, dil_;
  std::vector<float> col_;
};

}  // namespace

void register_deformable_convolution(OpRegistry& r) {
  SchemaBuilder s("DeformableConvolution", "Neural Network Layer");
  s.doc("2-D convolution sampling x bilinearly at learned offsets, optionally modulated by a mask")
      .in("x")
      .in_param("weight")
      .in("offset")
      .in_optional("mask")
      .in_optional("bias", true)
      .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("pad", AttrType::kShape, std::nullopt, "0s")
      .arg("stride", AttrType::kShape, std::nullopt, "1s")
      .arg("dilation", AttrType::kShape, std::nullopt, "1s")
      .arg("group", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("deformable_group", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("channel_last", AttrType::kBool, AttrValue(false))
      .out("y");
  register_cpu<DeformableConvolution>(r, s.build());
}

}  // namespace nn::ops
