// FusedBatchNormalization (BatchNormalization, optional residual add, ReLU) and SyncBatchNormalization
// (on one process exactly BatchNormalization), both delegating to the registered BatchNormalization kernel.
#include <algorithm>

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
      : Function(s, c, a), bn_(OpRegistry::instance().create("BatchNormalization", bn_attrs(a), c)) {}
  bool is_stochastic() const override { return attrs_.get_bool("batch_stat", true); }
  bool grad_depends_output_data(int, int o) const override { return o == 0; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const std::string nl = attrs_.get_string("nonlinearity", "relu");
    NN_CHECK(nl == "relu") << "FusedBatchNormalization: nonlinearity '" << nl
                           << "' is not supported (only relu)";
    bn_out_ = Variable::create();
    bn_->setup(bn_inputs(in), bn_outputs(out));
    out[0]->reshape(bn_out_->shape(), true);
    if (in.size() == 6) {
      NN_CHECK(in[5]->shape() == in[0]->shape())
          << "FusedBatchNormalization: z (input 5) has shape " << to_string(in[5]->shape())
          << ", expected x's " << to_string(in[0]->shape());
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

// SyncBatchNormalization on a single process: BatchNormalization (comm and group are accepted and unused).
class SyncBatchNormalization : public Function {
 public:
  SyncBatchNormalization(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), bn_(OpRegistry::instance().create("BatchNormalization", bn_attrs(a), c)) {}
  bool is_stochastic() const override { return attrs_.get_bool("batch_stat", true); }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { bn_->setup(in, out); }
  void forward_impl(const Variables& in, const Variables& out) override { bn_->forward(in, out); }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    bn_->backward(in, out, prop, accum);
  }

 private:
  FunctionPtr bn_;
};

}  // namespace

void register_fused_batch_normalization(OpRegistry& r) {
  register_cpu<FusedBatchNormalization>(
      r, SchemaBuilder("FusedBatchNormalization", "Normalization")
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
