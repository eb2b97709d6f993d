// INQAffine and INQConvolution (incremental network quantization): at the
// minibatches listed in inq_iterations a share of the still-learnable weights
// is marked fixed (indicator 1; all at the last one), fixed weights are rounded
// to powers of two (or pruned to 0) in place, then the plain layer runs. Like
// upstream, weight and indicator inputs are updated in place and backward is
// the plain layer's.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/affine_core.hpp"
#include "ops/nn_layer/conv_layer.hpp"

namespace nn::ops {
namespace {

// Inputs: x, weight, indicator_fixedweights, bias (optional).
class INQBase : public Function {
 public:
  using Function::Function;
  bool is_stochastic() const override { return true; }

 protected:
  void check_inq(const Variables& in) {
    const std::string fn = type();
    NN_CHECK(in[2]->shape() == in[1]->shape()) << fn << ": indicator_fixedweights " << to_string(in[2]->shape())
                                               << " must have the weight's shape " << to_string(in[1]->shape());
    const std::string algo = attrs_.get_string("selection_algorithm");
    NN_CHECK(algo == "largest_abs" || algo == "random")
        << fn << ": selection_algorithm '" << algo << "' must be largest_abs or random";
    const int64_t bits = attrs_.get_int("num_bits");
    NN_CHECK(bits >= 2) << fn << ": num_bits " << bits << " must be >= 2";
    counter_ = 0;
    old_weights_.assign(size_t(in[1]->size()), 0.f);
    old_indicators_.assign(size_t(in[1]->size()), 0.f);
  }

  // Restores previously fixed weights, selects new fixed ones, quantizes every
  // fixed weight.
  void quantize_weights(const Variables& in) {
    const int64_t n = in[1]->size();
    float* w = in[1]->data()->cast<float>();
    float* ind = in[2]->data()->cast<float>();
    for (int64_t i = 0; i < n; ++i)
      if (old_indicators_[size_t(i)] == 1.f) w[i] = old_weights_[size_t(i)];
    const auto iters = attrs_.get_ints("inq_iterations");
    if (std::find(iters.begin(), iters.end(), counter_) != iters.end()) {
      if (iters.back() == counter_) {
        std::fill(ind, ind + n, 1.f);
      } else if (attrs_.get_string("selection_algorithm") == "largest_abs") {
        std::vector<int64_t> order(static_cast<size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t a, int64_t b) { return std::fabs(w[a]) > std::fabs(w[b]); });
        const int64_t learnable = std::count(ind, ind + n, 0.f);
        int64_t fixed = 0;
        for (int64_t i = 0; i < n; ++i) {
          if (ind[order[size_t(i)]] == 0.f) ind[order[size_t(i)]] = 1.f, ++fixed;
          if (fixed >= learnable / 2) break;
        }
      } else {
        // A given seed replays the same draws at every selection, as upstream.
        const int64_t seed = attrs_.get_int("seed");
        std::mt19937 local(uint32_t(seed >= 0 ? seed : 0));
        RandomEngine& rng = seed >= 0 ? local : global_random();
        std::bernoulli_distribution coin(0.5);
        for (int64_t i = 0; i < n; ++i)
          if (ind[i] == 0.f) ind[i] = coin(rng) ? 1.f : 0.f;
      }
    }
    float max_abs = 0.f;
    for (int64_t i = 0; i < n; ++i) max_abs = std::max(max_abs, std::fabs(w[i]));
    if (max_abs == 0.f) max_abs = 1.f;
    const float log_threshold = std::log2(1.5f);
    auto round_log2 = [&](float v) {
      const float b = std::log2(v);
      return int(std::floor(b) + (b - std::floor(b) >= log_threshold ? 1 : 0));
    };
    const int n1 = round_log2(max_abs);
    const int n2 = n1 + 1 - (1 << (attrs_.get_int("num_bits") - 2));
    const float prune = std::ldexp(1.f, n2 - 1);
    for (int64_t i = 0; i < n; ++i) {
      if (ind[i] != 1.f) continue;
      if (std::fabs(w[i]) < prune) {
        w[i] = 0.f;
      } else {
        const int e = std::clamp(round_log2(std::fabs(w[i])), n2, n1);
        w[i] = std::ldexp(w[i] < 0.f ? -1.f : 1.f, e);
      }
    }
    ++counter_;
    std::copy(w, w + n, old_weights_.begin());
    std::copy(ind, ind + n, old_indicators_.begin());
  }

  const float* bias(const Variables& in) const { return in.size() > 3 ? in_data(in[3]) : nullptr; }
  float* grad_or_null(const Variables& in, const std::vector<bool>& prop, const std::vector<bool>& accum,
                      size_t i) const {
    return i < in.size() && prop[i] ? in_grad(in[i], accum[i]) : nullptr;
  }

 private:
  int64_t counter_ = 0;
  std::vector<float> old_weights_, old_indicators_;
};

class INQAffine : public INQBase {
 public:
  using INQBase::INQBase;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    check_inq(in);
    Shape b;
    if (in.size() > 3) b = in[3]->shape();
    plan_ = plan_affine("INQAffine", in[0]->shape(), in[1]->shape(), in.size() > 3 ? &b : nullptr,
                        attrs_.get_int("base_axis"));
    out[0]->reshape(plan_.y_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    quantize_weights(in);
    affine_forward(plan_, in_data(in[0]), in_data(in[1]), bias(in), out_data(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    affine_backward(plan_, in_data(in[0]), in_data(in[1]), out_grad(out[0]), grad_or_null(in, prop, accum, 0),
                    accum[0], grad_or_null(in, prop, accum, 1), accum[1], grad_or_null(in, prop, accum, 3),
                    in.size() > 3 && accum[3]);
  }

 private:
  AffinePlan plan_;
};

class INQConvolution : public INQBase {
 public:
  using INQBase::INQBase;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    check_inq(in);
    Shape b;
    if (in.size() > 3) b = in[3]->shape();
    out[0]->reshape(layer_.setup("INQConvolution", in[0]->shape(), in[1]->shape(), in.size() > 3 ? &b : nullptr,
                                 attrs_, attrs_.get_int("group")),
                    true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    quantize_weights(in);
    layer_.forward(in_data(in[0]), in_data(in[1]), bias(in), out_data(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    layer_.backward(prop[1] ? in_data(in[0]) : nullptr, prop[0] ? in_data(in[1]) : nullptr, out_grad(out[0]),
                    grad_or_null(in, prop, accum, 0), accum[0], grad_or_null(in, prop, accum, 1), accum[1],
                    grad_or_null(in, prop, accum, 3), in.size() > 3 && accum[3]);
  }

 private:
  ConvLayer layer_;
};

SchemaBuilder& inq_inputs(SchemaBuilder& s) {
  return s.in("x").in_param("weight").in_param("indicator_fixedweights").in_optional("bias", true);
}
SchemaBuilder& inq_args(SchemaBuilder& s) {
  return s.arg("num_bits", AttrType::kInt, AttrValue(int64_t(4)))
      .arg("inq_iterations", AttrType::kInts, AttrValue(std::vector<int64_t>{}))
      .arg("selection_algorithm", AttrType::kString, AttrValue(std::string("largest_abs")))
      .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)));
}
}  // namespace

void register_inq_affine(OpRegistry& r) {
  SchemaBuilder s("INQAffine", "Quantized Neural Network Layers");
  s.doc("affine with incrementally power-of-two quantized weights");
  inq_inputs(s).arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)));
  inq_args(s).out("y");
  register_cpu<INQAffine>(r, s.build());
}

void register_inq_convolution(OpRegistry& r) {
  SchemaBuilder s("INQConvolution", "Quantized Neural Network Layers");
  s.doc("convolution with incrementally power-of-two quantized weights");
  inq_inputs(s)
      .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("pad", AttrType::kShape, std::nullopt, "0s")
      .arg("stride", AttrType::kShape, std::nullopt, "1s")
      .arg("dilation", AttrType::kShape, std::nullopt, "1s")
      .arg("group", AttrType::kInt, AttrValue(int64_t(1)));
  inq_args(s).out("y");
  register_cpu<INQConvolution>(r, s.build());
}

}  // namespace nn::ops
