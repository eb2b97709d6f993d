// FusedConvolution: Convolution, then optional BatchNormalization, optional residual Add2 and an activation,
// composed from the registered kernels as upstream does (inputs told apart by their count, as upstream).
#include <memory>

#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/conv_infer.hpp"
#include "ops/nn_layer/conv_layer.hpp"

namespace nn::ops {
namespace {

// One sub-function of the chain; each slot is an outer input (index >= 0) or the previous stage's output.
struct Stage {
  FunctionPtr f;
  std::vector<int> outer_index;        // per sub-input: outer input index, kPrevious or kPreActivation
  VariablePtr output;                  // null for the last stage (it writes the outer output)
  bool adds_to_previous_grad = false;  // the previous stage's output has another reader, whose gradient came first
};
constexpr int kPrevious = -1;       // the previous stage's output
constexpr int kPreActivation = -2;  // the output of the stage before the activation's stages (hard_swish's x)

class FusedConvolution : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    stages_.clear();
    // Which optional inputs are present: decided by the count (and the bias's rank), as upstream.
    int bias = -1, bn = -1, z = -1;
    switch (in.size()) {
      case 2: break;
      case 3: (in[2]->ndim() == 1 ? bias : z) = 2; break;
      case 4: bias = 2, z = 3; break;
      case 6: bn = 2; break;
      case 7:
        NN_CHECK(in[2]->ndim() != 1) << "FusedConvolution: a convolution bias " << to_string(in[2]->shape())
                                     << " and batch normalization inputs cannot be given together";
        bn = 2, z = 6;
        break;
      default:
        NN_CHECK(false) << "FusedConvolution: " << in.size()
                        << " inputs; expected 2 (x, weight), 3 (+bias or +z), 4 (+bias, z), 6 (+beta, gamma, "
                           "mean, variance) or 7 (+BN inputs, z)";
    }
    const int64_t base_axis = attrs_.get_int("base_axis");
    const bool channel_last = attrs_.get_bool("channel_last");
    const std::string pad_mode = attrs_.get_string("pad_mode");
    const double constant_value = attrs_.get_float("constant_value");
    std::vector<int64_t> pad = attrs_.get_ints("pad", {});

    int x_slot = 0;
    if (!pad.empty() && (pad_mode != "constant" || constant_value != 0.0)) {
      // Non-zero padding: an explicit Pad on the spatial axes, then a convolution without padding.
      std::vector<int64_t> pad_width;
      for (int64_t p : pad) pad_width.insert(pad_width.end(), {p, p});
      add_stage("Pad", {0}, {{"pad_width", pad_width}, {"mode", pad_mode}, {"constant_value", constant_value}});
      pad.assign(pad.size(), 0);
      x_slot = -1;
    }
    Attrs conv{{"base_axis", base_axis}, {"group", attrs_.get_int("group")}, {"channel_last", channel_last}};
    if (!pad.empty()) conv.set("pad", pad);
    if (attrs_.has("stride")) conv.set("stride", attrs_.get_ints("stride"));
    if (attrs_.has("dilation")) conv.set("dilation", attrs_.get_ints("dilation"));
    std::vector<int> conv_in{x_slot, 1};
    if (bias >= 0) conv_in.push_back(bias);
    add_stage("Convolution", conv_in, conv);
    if (bn >= 0) {
      const int64_t channel_axis = channel_last ? in[0]->ndim() - 1 : base_axis;
      add_stage("BatchNormalization", {-1, bn, bn + 1, bn + 2, bn + 3},
                {{"axes", std::vector<int64_t>{channel_axis}},
                 {"decay_rate", attrs_.get_float("decay_rate")},
                 {"eps", attrs_.get_float("eps")},
                 {"batch_stat", attrs_.get_bool("batch_stat")}});
    }
    if (z >= 0) add_stage("Add2", {-1, z}, {});
    activation_from_ = stages_.size();
    add_activation();
    // Set up the chain; the last stage writes the outer output.
    stages_.back().output.reset();
    for (size_t s = 0; s < stages_.size(); ++s) {
      Stage& st = stages_[s];
      st.f->setup(stage_inputs(s, in), stage_outputs(s, out));
    }
    setup_fused(in, out, bias, bn, z, x_slot == 0);
  }
  // The residual z: oneDNN sums into the output what it holds (the copy of z into it is skipped when it is z's
  // own array), and the stages' Add2 and activation are element-wise.
  bool forward_in_place(int i) const override { return i == z_; }
  void forward_impl(const Variables& in, const Variables& out) override {
    stages_ran_ = false;
    if (fusable_ &&
        fused_.try_forward(*in[0]->data(), *in[1]->data(), bias_ >= 0 ? in[size_t(bias_)]->data().get() : nullptr,
                           z_ >= 0 ? in[size_t(z_)]->data().get() : nullptr, *out[0]->data()))
      return;
    run_stages(in, out);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!stages_ran_) run_stages(in, out);  // the fused forward kept no intermediates: recompute them
    for (size_t s = stages_.size(); s-- > 0;) {
      const Stage& st = stages_[s];
      std::vector<bool> sub_prop, sub_accum;
      for (int k : st.outer_index) {
        sub_prop.push_back(k < 0 || prop[size_t(k)]);  // intermediates always carry the gradient on
        sub_accum.push_back(k >= 0 ? bool(accum[size_t(k)]) : k == kPrevious && st.adds_to_previous_grad);
      }
      st.f->backward(stage_inputs(s, in), stage_outputs(s, out), sub_prop, sub_accum);
    }
  }

 private:
  void run_stages(const Variables& in, const Variables& out) {
    for (size_t s = 0; s < stages_.size(); ++s) stages_[s].f->forward(stage_inputs(s, in), stage_outputs(s, out));
    stages_ran_ = true;
  }
  // The one-primitive path (gradients off, CPU float): no batch normalization, zero padding, an activation
  // oneDNN applies, a residual of the output's shape.
  void setup_fused(const Variables& in, const Variables& out, int bias, int bn, int z, bool zero_padding) {
    bias_ = bias, z_ = z;
    const std::string act = attrs_.get_string("nonlinearity");
    const auto args = attrs_.get_floats("nonlinearity_args");
    fusable_ = bn < 0 && zero_padding && !attrs_.get_bool("channel_last") && ctx_.is_cpu_only() &&
               !ctx_.uses_half() && fusable_activation(act) && args.size() == nonlinearity_arg_count(act) &&
               (z < 0 || in[size_t(z)]->shape() == out[0]->shape());
    if (!fusable_) return;
    ConvLayer layer;
    layer.setup(type(), in[0]->shape(), in[1]->shape(), bias >= 0 ? &in[size_t(bias)]->shape() : nullptr, attrs_,
                attrs_.get_int("group"));
    ConvEpilogue e;
    e.bias = bias >= 0;
    e.residual = z >= 0;
    e.activation = act == "identity" ? "" : act;
    e.alpha = args.size() > 0 ? float(args[0]) : 0.f;
    e.beta = args.size() > 1 ? float(args[1]) : 0.f;
    fused_.reset(layer.geometry(), layer.out_channels(), layer.group(), layer.batch(), e);
  }
  void add_stage(const std::string& type, std::vector<int> outer_index, const Attrs& attrs) {
    stages_.push_back(
        {OpRegistry::instance().create(type, attrs, ctx_), std::move(outer_index), Variable::create()});
  }
  void add_activation() {
    const std::string act = attrs_.get_string("nonlinearity");
    const auto args = attrs_.get_floats("nonlinearity_args");
    const size_t needed = nonlinearity_arg_count(act);
    NN_CHECK(needed == 0 || args.size() == needed)
        << "FusedConvolution: nonlinearity " << act << " needs " << needed << " values in nonlinearity_args, got "
        << args.size();
    if (act == "identity" || act.empty()) {
      add_stage("Identity", {-1}, {});  // keeps "the last stage writes the output" uniform
    } else if (act == "relu") {
      add_stage("ReLU", {-1}, {});
    } else if (act == "sigmoid") {
      add_stage("Sigmoid", {-1}, {});
    } else if (act == "tanh") {
      add_stage("Tanh", {-1}, {});
    } else if (act == "leaky_relu") {
      add_stage("LeakyReLU", {-1}, {{"alpha", args[0]}});
    } else if (act == "elu") {
      add_stage("ELU", {-1}, {{"alpha", args[0]}});
    } else if (act == "relu6") {
      add_stage("ReLU6", {-1}, {});
    } else if (act == "swish") {  // nncli's extensions from here on (the inference fusion pass makes them)
      add_stage("Swish", {-1}, {});
    } else if (act == "hard_sigmoid") {
      add_clip_stages(args[0], args[1]);
    } else if (act == "hard_swish") {  // x * hard_sigmoid(x) with alpha 1/6, beta 0.5
      add_clip_stages(1.0 / 6.0, 0.5);
      stages_[activation_from_].adds_to_previous_grad = true;  // x's gradient from the Mul2 comes first
      add_stage("Mul2", {kPrevious, kPreActivation}, {});
    } else {
      NN_CHECK(false) << "FusedConvolution: nonlinearity '" << act
                      << "' is not one of identity, relu, sigmoid, tanh, leaky_relu, elu, relu6, swish, "
                         "hard_sigmoid, hard_swish";
    }
  }
  // clip(alpha x + beta, 0, 1) on the previous stage's output.
  void add_clip_stages(double alpha, double beta) {
    add_stage("MulScalar", {kPrevious}, {{"val", alpha}});
    add_stage("AddScalar", {kPrevious}, {{"val", beta}});
    add_stage("MinimumScalar", {kPrevious}, {{"val", 1.0}});
    add_stage("MaximumScalar", {kPrevious}, {{"val", 0.0}});
  }
  Variables stage_inputs(size_t s, const Variables& in) const {
    Variables v;
    for (int k : stages_[s].outer_index)
      v.push_back(k >= 0 ? in[size_t(k)] : stages_[k == kPrevious ? s - 1 : activation_from_ - 1].output.get());
    return v;
  }
  Variables stage_outputs(size_t s, const Variables& out) const {
    return {stages_[s].output ? stages_[s].output.get() : out[0]};
  }

  std::vector<Stage> stages_;
  bool stages_ran_ = false;  // the last forward ran the stages (so their intermediates are there)
  bool fusable_ = false;
  int bias_ = -1, z_ = -1;
  size_t activation_from_ = 0;  // the first of the activation's stages
  InferenceConvSlot fused_;
};

}  // namespace

void register_fused_convolution(OpRegistry& r) {
  register_cpu<FusedConvolution>(
      r, SchemaBuilder("FusedConvolution", "Neural Network Layer")
             .doc("convolution + optional batch normalization + optional residual add + activation")
             .in("x")
             .in_param("weight")
             .in_optional("bias", true)
             .in_optional("beta", true)
             .in_optional("gamma", true)
             .in_optional("mean")
             .in_optional("variance")
             .in_optional("z")
             .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
             .arg("pad", AttrType::kShape, std::nullopt, "0s")
             .arg("stride", AttrType::kShape, std::nullopt, "1s")
             .arg("dilation", AttrType::kShape, std::nullopt, "1s")
             .arg("group", AttrType::kInt, AttrValue(int64_t(1)))
             .arg("channel_last", AttrType::kBool, AttrValue(false))
             .arg("decay_rate", AttrType::kFloat, AttrValue(0.9))
             .arg("eps", AttrType::kFloat, AttrValue(1e-5))
             .arg("batch_stat", AttrType::kBool, AttrValue(true))
             .arg("nonlinearity", AttrType::kString, AttrValue(std::string("relu")))
             .arg("nonlinearity_args", AttrType::kFloats, AttrValue(std::vector<double>{}))
             .arg("pad_mode", AttrType::kString, AttrValue(std::string("constant")))
             .arg("constant_value", AttrType::kFloat, AttrValue(0.0))
             .out("y")
             .build());
}
}  // namespace nn::ops
