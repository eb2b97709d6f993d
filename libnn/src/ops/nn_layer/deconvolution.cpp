// Deconvolution (transposed convolution, grouped, dilated, output_padding) and DepthwiseDeconvolution: the
// adjoint of Convolution, run on the same im2col engine with the roles of input and output swapped.
#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {
namespace {

// How a deconvolution's weight maps onto the convolution it is the transpose of.
struct DeconvWeight {
  size_t spatial = 0;
  Shape kernel;
  int64_t in_channels = 0;   // x's channels: the convolution's output maps
  int64_t out_channels = 0;  // y's channels: the convolution's input maps
  int64_t group = 1;
};

// Shared Function body: x, weight, optional bias -> y. Subclasses check and read the weight layout.
class DeconvFunctionBase : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override { return (i == 0 && j == 1) || (i == 1 && j == 0); }

 protected:
  virtual DeconvWeight read_weight(const Shape& x, const Shape& w, int64_t base_axis) const = 0;
  // Extra output size per spatial axis (checked for its length here, for >= 0 by the caller).
  virtual Shape output_padding(size_t spatial) const { return Shape(spatial, 0); }
  // Appended to the "output size is not positive" error.
  virtual std::string size_error_detail(const Shape&, const Shape&) const { return ""; }

  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& x = in[0]->shape();
    const Shape& w = in[1]->shape();
    const std::string& fn = type();
    const int64_t base_axis = attrs_.get_int("base_axis");
    const DeconvWeight dw = read_weight(x, w, base_axis);
    out_channels_ = dw.out_channels;
    if (in.size() > 2) {
      NN_CHECK(in[2]->shape() == Shape{out_channels_})
          << fn << ": bias " << to_string(in[2]->shape()) << " must be (" << out_channels_ << ",)";
    }
    ConvArgs args = read_conv_args(attrs_, dw.spatial, fn);
    const Shape out_pad = output_padding(dw.spatial);
    // The convolution this op is the transpose of: its input is our output and vice versa.
    ConvGeometry g;
    g.channels = out_channels_;
    g.kernel = dw.kernel;
    g.out.assign(x.begin() + base_axis + 1, x.end());
    g.pad = args.pad;
    g.stride = args.stride;
    g.dilation = args.dilation;
    for (size_t d = 0; d < dw.spatial; ++d) {
      NN_CHECK(out_pad[d] >= 0) << fn << ": output_padding " << to_string(out_pad) << " must be >= 0";
      const int64_t o = args.stride[d] * (g.out[d] - 1) + args.dilation[d] * (g.kernel[d] - 1) + 1 -
                        2 * args.pad[d] + out_pad[d];
      NN_CHECK(o > 0) << fn << ": output size " << o << " on spatial axis " << d << " is not positive"
                      << size_error_detail(x, w);
      g.in.push_back(o);
    }
    batch_ = shape_size(x, 0, size_t(base_axis));
    engine_.setup(g, dw.in_channels, dw.group, batch_);
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
      bias_backward(dy, batch_, out_channels_, engine_.geometry().in_size, in_grad(in[2], accum[2]), accum[2]);
    if (prop[1]) engine_.backward_weight(dy, in_data(in[0]), in_grad(in[1], accum[1]), accum[1]);
    if (prop[0]) engine_.forward(dy, in_data(in[1]), in_grad(in[0], accum[0]), accum[0]);
  }

 private:
  ConvEngine engine_;
  int64_t batch_ = 0, out_channels_ = 0;
};

// Weight (in_channels, out_channels/group, kernel...).
class Deconvolution : public DeconvFunctionBase {
 public:
  using DeconvFunctionBase::DeconvFunctionBase;

 protected:
  DeconvWeight read_weight(const Shape& x, const Shape& w, int64_t base_axis) const override {
    NN_CHECK(!attrs_.get_bool("channel_last"))
        << "Deconvolution: channel_last=true is not supported on CPU (input " << to_string(x) << ")";
    NN_CHECK(w.size() >= 3) << "Deconvolution: weight " << to_string(w)
                            << " must be (in_channels, out_channels/group, kernel...)";
    DeconvWeight dw;
    dw.spatial = w.size() - 2;
    NN_CHECK(base_axis >= 0 && size_t(base_axis) + 1 + dw.spatial == x.size())
        << "Deconvolution: input " << to_string(x) << " with base_axis " << base_axis << " does not match weight "
        << to_string(w);
    dw.group = attrs_.get_int("group");
    NN_CHECK(dw.group >= 1) << "Deconvolution: group " << dw.group << " must be >= 1";
    dw.in_channels = x[size_t(base_axis)];
    NN_CHECK(w[0] == dw.in_channels && dw.in_channels % dw.group == 0)
        << "Deconvolution: weight " << to_string(w) << " does not match input channels " << dw.in_channels
        << " of " << to_string(x) << " with group " << dw.group;
    dw.out_channels = w[1] * dw.group;
    dw.kernel.assign(w.begin() + 2, w.end());
    return dw;
  }
  Shape output_padding(size_t spatial) const override {
    Shape out_pad = attrs_.get_shape_or("output_padding", Shape(spatial, 0));
    NN_CHECK(out_pad.size() == spatial)
        << "Deconvolution: output_padding " << to_string(out_pad) << " must have " << spatial << " entries";
    return out_pad;
  }
};

// Weight (C, kernel...): output channel o is the sum of the transposed convolutions of input channels
// o*divisor .. o*divisor+divisor-1, each with its own kernel; run as a grouped deconvolution (group
// C / divisor, one output map per group).
class DepthwiseDeconvolution : public DeconvFunctionBase {
 public:
  using DeconvFunctionBase::DeconvFunctionBase;

 protected:
  DeconvWeight read_weight(const Shape& x, const Shape& w, int64_t base_axis) const override {
    const int64_t divisor = attrs_.get_int("divisor");
    NN_CHECK(base_axis >= 0 && base_axis < int64_t(x.size()) - 1)
        << "DepthwiseDeconvolution: base_axis " << base_axis << " must be < ndim - 1 of input " << to_string(x);
    DeconvWeight dw;
    dw.spatial = x.size() - size_t(base_axis) - 1;
    dw.in_channels = x[size_t(base_axis)];
    NN_CHECK(w.size() == dw.spatial + 1 && w[0] == dw.in_channels)
        << "DepthwiseDeconvolution: weight " << to_string(w) << " must be (" << dw.in_channels
        << ", kernel...) with " << dw.spatial << " kernel dims for input " << to_string(x);
    NN_CHECK(divisor >= 1 && dw.in_channels % divisor == 0)
        << "DepthwiseDeconvolution: divisor " << divisor << " must divide the " << dw.in_channels
        << " input channels";
    dw.out_channels = dw.in_channels / divisor;
    dw.group = dw.out_channels;
    dw.kernel.assign(w.begin() + 1, w.end());
    return dw;
  }
  std::string size_error_detail(const Shape& x, const Shape& w) const override {
    return " (input " + to_string(x) + ", weight " + to_string(w) + ")";
  }
};

SchemaBuilder& deconv_args(SchemaBuilder& s) {
  return s.in("x")
      .in_param("weight")
      .in_optional("bias", true)
      .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("pad", AttrType::kShape, std::nullopt, "0s")
      .arg("stride", AttrType::kShape, std::nullopt, "1s")
      .arg("dilation", AttrType::kShape, std::nullopt, "1s");
}
}  // namespace

void register_deconvolution(OpRegistry& r) {
  SchemaBuilder s("Deconvolution", "Neural Network Layer");
  s.doc("transposed convolution; weight (in_channels, out_channels/group, kernel...)");
  deconv_args(s).arg("group", AttrType::kInt, AttrValue(int64_t(1)));
  s.arg("channel_last", AttrType::kBool, AttrValue(false))
      .arg("output_padding", AttrType::kShape, std::nullopt, "0s")
      .out("y");
  register_cpu<Deconvolution>(r, s.build());
}

void register_depthwise_deconvolution(OpRegistry& r) {
  SchemaBuilder s("DepthwiseDeconvolution", "Neural Network Layer");
  s.doc("depthwise transposed convolution; `divisor` input channels sum into each output channel");
  deconv_args(s).arg("divisor", AttrType::kInt, AttrValue(int64_t(1))).out("y");
  register_cpu<DepthwiseDeconvolution>(r, s.build());
}

}  // namespace nn::ops
