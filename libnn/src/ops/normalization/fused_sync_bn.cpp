// FusedBatchNormalization (BatchNormalization, optional residual add, ReLU) and SyncBatchNormalization
// (exactly BatchNormalization on one process; statistics all-reduced under a distributed communicator).
#include <algorithm>
#include <cmath>

#include "nn/ops/process_group.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// BatchNormalization's arguments taken from this op's.
Attrs bn_attrs(const Attrs& a) {
  Attrs b;
  for (const char* k : {"axes", "decay_rate", "eps", "batch_stat"})
    if (const AttrValue* v = a.find(k)) b.set(k, *v);
  return b;
}

// Inputs x, beta, gamma, mean, variance[, z]; y = relu(BN(x) + z).
class FusedBatchNormalization : public Function {
 public:
  FusedBatchNormalization(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), bn_(OpRegistry::instance().create("BatchNormalization", bn_attrs(attrs_), c)) {}
  bool is_stochastic() const override { return attrs_.get_bool("batch_stat"); }
  bool grad_depends_output_data(int, int o) const override { return o == 0; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const std::string nl = attrs_.get_string("nonlinearity");
    NN_CHECK(nl == "relu") << "FusedBatchNormalization: nonlinearity '" << nl << "' is not supported (only relu)";
    bn_out_ = Variable::create();
    bn_->setup(bn_inputs(in), bn_outputs(out));
    out[0]->reshape(bn_out_->shape(), true);
    if (in.size() == 6) {
      NN_CHECK(in[5]->shape() == in[0]->shape())
          << "FusedBatchNormalization: z (input 5) has shape " << to_string(in[5]->shape()) << ", expected x's "
          << to_string(in[0]->shape());
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    bn_->forward(bn_inputs(in), bn_outputs(out));
    const float* h = in_data(bn_out_.get());
    const float* z = in.size() == 6 ? in_data(in[5]) : nullptr;
    float* y = out_data(out[0]);
    parallel_for(out[0]->size(), [&](int64_t i) { y[i] = std::max(0.f, h[i] + (z ? z[i] : 0.f)); });
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* y = in_data(out[0]);
    const float* dy = out_grad(out[0]);
    float* dh = bn_out_->grad()->cast<float>(true);
    const int64_t n = out[0]->size();
    parallel_for(n, [&](int64_t i) { dh[i] = y[i] > 0 ? dy[i] : 0.f; });
    if (in.size() == 6 && prop[5]) {
      float* dz = in_grad(in[5], accum[5]);
      for (int64_t i = 0; i < n; ++i) store_grad(dz, i, dh[i], accum[5]);
    }
    std::vector<bool> p5(prop.begin(), prop.begin() + 5), a5(accum.begin(), accum.begin() + 5);
    bn_->backward(bn_inputs(in), bn_outputs(out), p5, a5);
  }

 private:
  Variables bn_inputs(const Variables& in) const { return Variables(in.begin(), in.begin() + 5); }
  Variables bn_outputs(const Variables& out) const {
    Variables o = out;
    o[0] = bn_out_.get();
    return o;
  }
  FunctionPtr bn_;
  VariablePtr bn_out_;  // BN's output before the residual add and ReLU
};

// SyncBatchNormalization: with batch statistics in a distributed process group (its all-reduce registered
// with set_process_all_reduce_sum by data-parallel training) the per-channel sums of the forward
// (mean, variance over every process's batch) and of the backward (sum dy, sum dy*(x-mean)) are all-reduced;
// otherwise exactly BatchNormalization. `comm` is accepted and unused; `group` must be "world".
class SyncBatchNormalization : public Function {
 public:
  SyncBatchNormalization(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a),
        bn_(OpRegistry::instance().create("BatchNormalization", bn_attrs(attrs_), c)),
        decay_(attrs_.get_float("decay_rate")),
        eps_(attrs_.get_float("eps")) {}
  bool is_stochastic() const override { return attrs_.get_bool("batch_stat"); }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    bn_->setup(in, out);
    const Shape& xs = in[0]->shape();
    const int axis = normalize_axis(attrs_.get_ints("axes")[0], xs.size(), "SyncBatchNormalization: axis");
    outer_ = shape_size(xs, 0, axis);
    channels_ = xs[axis];
    inner_ = shape_size(xs, axis + 1, xs.size());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    if (synchronized()) return forward_synchronized(in, out);
    bn_->forward(in, out);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (synchronized()) return backward_synchronized(in, out, prop, accum);
    bn_->backward(in, out, prop, accum);
  }

 private:
  bool synchronized() {
    if (!attrs_.get_bool("batch_stat")) return false;
    all_reduce_sum_ = process_all_reduce_sum();
    if (!all_reduce_sum_) return false;
    const std::string group = attrs_.get_string("group");
    NN_CHECK(group == "world") << "SyncBatchNormalization: group '" << group << "' is not supported (world)";
    return true;
  }
  template <class F>
  void for_channel(int64_t c, F&& f) const {
    for (int64_t o = 0; o < outer_; ++o)
      for (int64_t k = 0, base = (o * channels_ + c) * inner_; k < inner_; ++k) f(base + k);
  }
  // Per channel sums of f(i, c) over this process's batch, then over every process.
  template <class F>
  std::vector<double> global_sums(int per_channel, F&& f) const {
    std::vector<double> sums(size_t(channels_ * per_channel + 1), 0.0);
    for (int64_t c = 0; c < channels_; ++c) for_channel(c, [&](int64_t i) { f(i, c, &sums[c * per_channel]); });
    sums.back() = double(outer_ * inner_);
    all_reduce_sum_(sums.data(), sums.size());
    return sums;
  }
  void forward_synchronized(const Variables& in, const Variables& out) {
    const float* x = in_data(in[0]);
    const float *beta = in_data(in[1]), *gamma = in_data(in[2]);
    const auto sums = global_sums(1, [&](int64_t i, int64_t, double* s) { s[0] += x[i]; });
    const double n = sums.back();
    mean_.resize(size_t(channels_));
    for (int64_t c = 0; c < channels_; ++c) mean_[c] = sums[c] / n;
    const auto sq =
        global_sums(1, [&](int64_t i, int64_t c, double* s) { s[0] += (x[i] - mean_[c]) * (x[i] - mean_[c]); });
    var_.resize(size_t(channels_));
    float* rm = in[3]->data()->cast<float>();
    float* rv = in[4]->data()->cast<float>();
    float* y = out_data(out[0]);
    const double unbias = n > 1 ? n / (n - 1) : 1.0;
    for (int64_t c = 0; c < channels_; ++c) {
      var_[c] = sq[c] / n;
      rm[c] = float(decay_ * rm[c] + (1 - decay_) * mean_[c]);
      rv[c] = float(decay_ * rv[c] + (1 - decay_) * var_[c] * unbias);
      const double scale = gamma[c] / std::sqrt(var_[c] + eps_), shift = beta[c] - mean_[c] * scale;
      for_channel(c, [&](int64_t i) { y[i] = float(x[i] * scale + shift); });
    }
  }
  void backward_synchronized(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                             const std::vector<bool>& accum) {
    const float* x = in_data(in[0]);
    const float* gamma = in_data(in[2]);
    const float* dy = out_grad(out[0]);
    // Local sums give beta's and gamma's gradients (averaged over processes with the other gradients);
    // the global ones give x's.
    std::vector<double> local(size_t(2 * channels_), 0.0);
    for (int64_t c = 0; c < channels_; ++c)
      for_channel(c, [&](int64_t i) {
        local[2 * c] += dy[i];
        local[2 * c + 1] += dy[i] * (x[i] - mean_[c]);
      });
    std::vector<double> global = local;
    global.push_back(double(outer_ * inner_));
    all_reduce_sum_(global.data(), global.size());
    const double n = global.back();
    float* dx = prop[0] ? in_grad(in[0], accum[0]) : nullptr;
    float* db = prop[1] ? in_grad(in[1], accum[1]) : nullptr;
    float* dg = prop[2] ? in_grad(in[2], accum[2]) : nullptr;
    for (int k = 3; k < 5; ++k)
      if (prop[k]) {
        float* g = in_grad(in[k], accum[k]);
        for (int64_t c = 0; c < channels_; ++c) store_grad(g, c, 0.f, accum[k]);
      }
    for (int64_t c = 0; c < channels_; ++c) {
      const double inv_std = 1.0 / std::sqrt(var_[c] + eps_), g = gamma[c];
      if (db) store_grad(db, c, float(local[2 * c]), accum[1]);
      if (dg) store_grad(dg, c, float(local[2 * c + 1] * inv_std), accum[2]);
      if (!dx) continue;
      const double mean_dy = global[2 * c] / n, mean_dy_xc = global[2 * c + 1] / n;
      for_channel(c, [&](int64_t i) {
        const double xc = x[i] - mean_[c];
        store_grad(dx, i, float(g * inv_std * (dy[i] - mean_dy - xc * mean_dy_xc * inv_std * inv_std)), accum[0]);
      });
    }
  }

  FunctionPtr bn_;
  double decay_, eps_;
  int64_t outer_ = 1, channels_ = 1, inner_ = 1;
  std::vector<double> mean_, var_;      // global batch statistics of the last synchronized forward
  ProcessAllReduceSum all_reduce_sum_;  // the process group's sum, taken when a pass starts
};

}  // namespace

void register_fused_batch_normalization(OpRegistry& r) {
  register_cpu<FusedBatchNormalization>(r,
                                        SchemaBuilder("FusedBatchNormalization", "Normalization")
                                            .doc("batch normalization, optional residual add of z, then ReLU")
                                            .in("x")
                                            .in_param("beta")
                                            .in_param("gamma")
                                            .in("mean")
                                            .in("variance")
                                            .in_optional("z")
                                            .arg("axes", AttrType::kInts, AttrValue(std::vector<int64_t>{1}))
                                            .arg("decay_rate", AttrType::kFloat, AttrValue(0.9))
                                            .arg("eps", AttrType::kFloat, AttrValue(1e-5))
                                            .arg("batch_stat", AttrType::kBool, AttrValue(true))
                                            .arg("nonlinearity", AttrType::kString, AttrValue(std::string("relu")))
                                            .out("y")
                                            .build());
}

void register_sync_batch_normalization(OpRegistry& r) {
  register_cpu<SyncBatchNormalization>(
      r, SchemaBuilder("SyncBatchNormalization", "Normalization")
             .doc("batch normalization with statistics synchronized over processes (single process here)")
             .in("x")
             .in_param("beta")
             .in_param("gamma")
             .in("mean")
             .in("variance")
             .arg("comm", AttrType::kCommunicator, std::nullopt, "communicator")
             .arg("group", AttrType::kString, AttrValue(std::string("world")))
             .arg("axes", AttrType::kInts, AttrValue(std::vector<int64_t>{1}))
             .arg("decay_rate", AttrType::kFloat, AttrValue(0.9))
             .arg("eps", AttrType::kFloat, AttrValue(1e-5))
             .arg("batch_stat", AttrType::kBool, AttrValue(true))
             .out("y")
             .build());
}

}  // namespace nn::ops
