// Deconvolution (transposed convolution, grouped, dilated, output_padding): the adjoint of Convolution,
// run on the same im2col engine with the roles of input and output swapped.
#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {
namespace {

class Deconvolution : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override {
    return (i == 0 && j == 1) || (i == 1 && j == 0);
  }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& x = in[0]->shape();
    const Shape& w = in[1]->shape();
    NN_CHECK(!attrs_.get_bool("channel_last"))
        << "Deconvolution: channel_last=true is not supported on CPU (input " << to_string(x) << ")";
    NN_CHECK(w.size() >= 3) << "Deconvolution: weight " << to_string(w)
                            << " must be (in_channels, out_channels/group, kernel...)";
    const size_t spatial = w.size() - 2;
    const int64_t base_axis = attrs_.get_int("base_axis");
    NN_CHECK(base_axis >= 0 && size_t(base_axis) + 1 + spatial == x.size())
        << "Deconvolution: input " << to_string(x) << " with base_axis " << base_axis
        << " does not match weight " << to_string(w);
    const int64_t group = attrs_.get_int("group");
    NN_CHECK(group >= 1) << "Deconvolution: group " << group << " must be >= 1";
    const int64_t in_channels = x[size_t(base_axis)];
    NN_CHECK(w[0] == in_channels && in_channels % group == 0)
        << "Deconvolution: weight " << to_string(w) << " does not match input channels " << in_channels
        << " of " << to_string(x) << " with group " << group;
    out_channels_ = w[1] * group;
    if (in.size() > 2) {
      NN_CHECK(in[2]->shape() == Shape{out_channels_})
          << "Deconvolution: bias " << to_string(in[2]->shape()) << " must be (" << out_channels_ << ",)";
    }
    ConvArgs args = read_conv_args(attrs_, spatial, "Deconvolution");
    Shape out_pad = attrs_.get_shape_or("output_padding", Shape(spatial, 0));
    NN_CHECK(out_pad.size() == spatial)
        << "Deconvolution: output_padding " << to_string(out_pad) << " must have " << spatial << " entries";
    // The convolution this op is the transpose of: its input is our output and vice versa.
    ConvGeometry g;
    g.channels = out_channels_;
    g.kernel.assign(w.begin() + 2, w.end());
    g.out.assign(x.begin() + base_axis + 1, x.end());
    g.pad = args.pad;
    g.stride = args.stride;
    g.dilation = args.dilation;
    for (size_t d = 0; d < spatial; ++d) {
      NN_CHECK(out_pad[d] >= 0) << "Deconvolution: output_padding " << to_string(out_pad) << " must be >= 0";
      const int64_t o = args.stride[d] * (g.out[d] - 1) + args.dilation[d] * (g.kernel[d] - 1) + 1 -
                        2 * args.pad[d] + out_pad[d];
      NN_CHECK(o > 0) << "Deconvolution: output size " << o << " on spatial axis " << d << " is not positive";
      g.in.push_back(o);
    }
    batch_ = shape_size(x, 0, size_t(base_axis));
    engine_.setup(g, in_channels, group, batch_);
    Shape y(x.begin(), x.begin() + base_axis);
    y.push_back(out_channels_);
    y.insert(y.end(), g.in.begin(), g.in.end());
    out[0]->reshape(y, true);
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    float* y = out_data(out[0]);
    std::fill(y, y + out[0]->size(), 0.f);
    engine_.backward_data_add(in_data(in[0]), in_data(in[1]), y);
    if (in.size() > 2) bias_forward(in_data(in[2]), batch_, out_channels_, engine_.geometry().in_size, y);
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
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

void register_deconvolution(OpRegistry& r) {
  register_cpu<Deconvolution>(
      r, SchemaBuilder("Deconvolution", "Neural Network Layer")
             .doc("transposed convolution; weight (in_channels, out_channels/group, kernel...)")
             .in("x")
             .in_param("weight")
             .in_optional("bias", true)
             .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
             .arg("pad", AttrType::kShape, std::nullopt, "0s")
             .arg("stride", AttrType::kShape, std::nullopt, "1s")
             .arg("dilation", AttrType::kShape, std::nullopt, "1s")
             .arg("group", AttrType::kInt, AttrValue(int64_t(1)))
             .arg("channel_last", AttrType::kBool, AttrValue(false))
             .arg("output_padding", AttrType::kShape, std::nullopt, "0s")
             .out("y")
             .build());
}

}  // namespace nn::ops
