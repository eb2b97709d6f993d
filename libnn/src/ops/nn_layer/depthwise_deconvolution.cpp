// DepthwiseDeconvolution: output channel o is the sum of the transposed
// convolutions of input channels o*divisor .. o*divisor+divisor-1, each with
// its own kernel (weight (C, kernel...)); run as a grouped deconvolution (group
// = C / divisor, one output map per group) on the shared im2col engine.
#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {
namespace {

class DepthwiseDeconvolution : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override {
    return (i == 0 && j == 1) || (i == 1 && j == 0);
  }

 protected:
  void setup_impl(const Variables &in, const Variables &out) override {
    const Shape &x = in[0]->shape();
    const Shape &w = in[1]->shape();
    const int64_t base_axis = attrs_.get_int("base_axis");
    const int64_t divisor = attrs_.get_int("divisor");
    NN_CHECK(base_axis >= 0 && base_axis < int64_t(x.size()) - 1)
        << "DepthwiseDeconvolution: base_axis " << base_axis << " must be < ndim - 1 of input "
        << to_string(x);
    const size_t spatial = x.size() - size_t(base_axis) - 1;
    const int64_t channels = x[size_t(base_axis)];
    NN_CHECK(w.size() == spatial + 1 && w[0] == channels)
        << "DepthwiseDeconvolution: weight " << to_string(w) << " must be (" << channels
        << ", kernel...) with " << spatial << " kernel dims for input " << to_string(x);
    NN_CHECK(divisor >= 1 && channels % divisor == 0) << "DepthwiseDeconvolution: divisor " << divisor
                                                      << " must divide the " << channels << " input channels";
    out_channels_ = channels / divisor;
    if (in.size() > 2) {
      NN_CHECK(in[2]->shape() == Shape{out_channels_})
          << "DepthwiseDeconvolution: bias " << to_string(in[2]->shape()) << " must be (" << out_channels_
          << ",)";
    }
    ConvArgs args = read_conv_args(attrs_, spatial, "DepthwiseDeconvolution");
    // The convolution this op is the transpose of: its input is our output.
    ConvGeometry g;
    g.channels = out_channels_;
    g.kernel.assign(w.begin() + 1, w.end());
    g.out.assign(x.begin() + base_axis + 1, x.end());
    g.pad = args.pad;
    g.stride = args.stride;
    g.dilation = args.dilation;
    for (size_t d = 0; d < spatial; ++d) {
      const int64_t o =
          args.stride[d] * (g.out[d] - 1) + args.dilation[d] * (g.kernel[d] - 1) + 1 - 2 * args.pad[d];
      NN_CHECK(o > 0) << "DepthwiseDeconvolution: output size " << o << " on spatial axis " << d
                      << " is not positive (input " << to_string(x) << ", weight " << to_string(w) << ")";
      g.in.push_back(o);
    }
    batch_ = shape_size(x, 0, size_t(base_axis));
    engine_.setup(g, channels, out_channels_, batch_);
    Shape y(x.begin(), x.begin() + base_axis);
    y.push_back(out_channels_);
    y.insert(y.end(), g.in.begin(), g.in.end());
    out[0]->reshape(y, true);
  }

  void forward_impl(const Variables &in, const Variables &out) override {
    float *y = out_data(out[0]);
    std::fill(y, y + out[0]->size(), 0.f);
    engine_.backward_data_add(in_data(in[0]), in_data(in[1]), y);
    if (in.size() > 2) bias_forward(in_data(in[2]), batch_, out_channels_, engine_.geometry().in_size, y);
  }

  void backward_impl(const Variables &in, const Variables &out, const std::vector<bool> &prop,
                     const std::vector<bool> &accum) override {
    const float *dy = out_grad(out[0]);
    if (in.size() > 2 && prop[2])
      bias_backward(dy, batch_, out_channels_, engine_.geometry().in_size, in_grad(in[2], accum[2]),
                    accum[2]);
    if (prop[1]) engine_.backward_weight(dy, in_data(in[0]), in_grad(in[1], accum[1]), accum[1]);
    if (prop[0]) engine_.forward(dy, in_data(in[1]), in_grad(in[0], accum[0]), accum[0]);
  }

 private:
  ConvEngine engine_;
  int64_t batch_ = 0, out_channels_ = 0;
};
}  // namespace

void register_depthwise_deconvolution(OpRegistry &r) {
  register_cpu<DepthwiseDeconvolution>(r,
                                       SchemaBuilder("DepthwiseDeconvolution", "Neural Network Layer")
                                           .doc("depthwise transposed convolution; `divisor` input channels "
                                                "sum into each output channel")
                                           .in("x")
                                           .in_param("weight")
                                           .in_optional("bias", true)
                                           .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                           .arg("pad", AttrType::kShape, std::nullopt, "0s")
                                           .arg("stride", AttrType::kShape, std::nullopt, "1s")
                                           .arg("dilation", AttrType::kShape, std::nullopt, "1s")
                                           .arg("divisor", AttrType::kInt, AttrValue(int64_t(1)))
                                           .out("y")
                                           .build());
}

}  // namespace nn::ops
