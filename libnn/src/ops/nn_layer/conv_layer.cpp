// ConvLayer: convolution shape rules (nnabla's) and the calls into the GEMM engine.
#include "ops/nn_layer/conv_layer.hpp"

#include <algorithm>

#include "nn/core/error.hpp"

namespace nn::ops {

Shape ConvLayer::setup(const std::string& fn, const Shape& x, const Shape& w, const Shape* b, const Attrs& attrs,
                       int64_t group) {
  // Not every convolution has channel_last (DepthwiseConvolution, the binary and INQ ones do not).
  NN_CHECK(!(attrs.has("channel_last") && attrs.get_bool("channel_last")))
      << fn << ": channel_last=true is not supported on CPU (input " << to_string(x) << ")";
  NN_CHECK(w.size() >= 3) << fn << ": weight " << to_string(w)
                          << " must be (out_channels, in_channels/group, kernel...) with at least one kernel axis";
  const size_t spatial = w.size() - 2;
  const int64_t base_axis = attrs.get_int("base_axis");
  NN_CHECK(base_axis >= 0 && size_t(base_axis) + 1 + spatial == x.size())
      << fn << ": input " << to_string(x) << " with base_axis " << base_axis << " does not match weight "
      << to_string(w) << " (expected " << base_axis + 1 + int64_t(spatial) << " input dims)";
  NN_CHECK(group >= 1) << fn << ": group " << group << " must be >= 1";
  const int64_t channels = x[size_t(base_axis)];
  oc_ = w[0];
  NN_CHECK(channels % group == 0 && w[1] * group == channels)
      << fn << ": input channels " << channels << " of " << to_string(x) << " do not match weight " << to_string(w)
      << " with group " << group;
  NN_CHECK(oc_ % group == 0) << fn << ": output channels " << oc_ << " not divisible by group " << group;
  if (b) {
    NN_CHECK(b->size() == 1 && (*b)[0] == oc_)
        << fn << ": bias " << to_string(*b) << " must be (" << oc_ << ",) for weight " << to_string(w);
  }
  ConvArgs args = read_conv_args(attrs, spatial, fn);
  ConvGeometry g;
  g.channels = channels;
  g.in.assign(x.begin() + base_axis + 1, x.end());
  g.kernel.assign(w.begin() + 2, w.end());
  g.pad = args.pad;
  g.stride = args.stride;
  g.dilation = args.dilation;
  for (size_t d = 0; d < spatial; ++d) {
    const int64_t o = conv_out_size(g.in[d], g.kernel[d], g.pad[d], g.stride[d], g.dilation[d]);
    NN_CHECK(o > 0) << fn << ": spatial axis " << d << " of input " << to_string(x) << " (pad " << g.pad[d]
                    << ", dilation " << g.dilation[d] << ") is smaller than kernel " << g.kernel[d];
    g.out.push_back(o);
  }
  batch_ = shape_size(x, 0, size_t(base_axis));
  group_ = group;
  engine_.setup(g, oc_, group, batch_);
  Shape y(x.begin(), x.begin() + base_axis);
  y.push_back(oc_);
  y.insert(y.end(), g.out.begin(), g.out.end());
  return y;
}

void ConvLayer::forward(const float* x, const float* w, const float* b, float* y, uint64_t w_version) {
  engine_.forward(x, w, y, false, w_version);
  if (b) bias_forward(b, batch_, oc_, engine_.geometry().out_size, y);
}

void ConvLayer::backward(const float* x, const float* w, const float* dy, float* dx, bool accum_x, float* dw,
                         bool accum_w, float* db, bool accum_b) {
  if (db) bias_backward(dy, batch_, oc_, engine_.geometry().out_size, db, accum_b);
  if (dx || dw) engine_.backward_both(x, w, dy, dx, accum_x, dw, accum_w);
}

}  // namespace nn::ops
