// CUDA kernels of the further activations, math, arithmetic and elementwise losses: Exp, Log, Abs, SELU,
// SoftPlus, BinarySigmoid/Tanh, CReLU/CELU, PReLU, Pow2/Maximum2/Minimum2, the elementwise losses, Dropout;
// the label ops are registered from math_labels.cpp.
#include "cuda/kernels/math.hpp"
#include "cuda/ops/elementwise.hpp"
#include "nn/core/random.hpp"
#include "ops/activation/axis_split.hpp"
#include "ops/activation/prelu_args.hpp"
#include "ops/stochastic/dropout_args.hpp"

namespace nn::cuda {

void register_math_label_kernels(OpRegistry& r);  // math_labels.cpp

namespace {

// CReLU (kElu false) and CELU: f(x) and f(-x) concatenated along `axis`.
template <class T, bool kElu>
class CudaConcatActivation : public CudaWithCpuSetup {
 public:
  CudaConcatActivation(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaWithCpuSetup(s, c, a), alpha_(kElu ? ops::AlphaParams(attrs_).alpha : 0.f) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    const Shape& s = in[0]->shape();
    const auto split = ops::split_at_axis(s, ops::axis_argument(attrs_, s));
    outer_ = split.outer;
    block_ = split.size * split.inner;
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    k::concat_activation_forward<T>(st(), kElu, outer_, block_, x, data_out<T>(out[0]), alpha_);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    const T* dy = grad_out<T>(out[0]);
    k::concat_activation_backward<T>(st(), kElu, outer_, block_, x, dy, grad_in<T>(in[0], accum[0]), alpha_,
                                     accum[0]);
  }

 private:
  float alpha_;
  int64_t outer_ = 0, block_ = 0;
};

// PReLU: one shared slope or one per channel of axis base_axis; the slope grad is a per-channel reduction.
template <class T>
class CudaPReLU : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    const ops::PReluPlan plan = ops::plan_prelu(attrs_, in[0]->shape(), in[1]->shape());
    channels_ = plan.channels;
    inner_ = plan.inner;
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    const T* w = data_in<T>(in[1]);
    k::prelu_forward<T>(st(), in[0]->size(), channels_, inner_, x, w, data_out<T>(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0] && !prop[1]) return;
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    const T* dy = grad_out<T>(out[0]);
    const int64_t n = in[0]->size();
    if (prop[0]) {
      const T* w = data_in<T>(in[1]);
      k::prelu_backward_input<T>(st(), n, channels_, inner_, x, w, dy, grad_in<T>(in[0], accum[0]), accum[0]);
    }
    if (prop[1]) {
      const int64_t m = in[1]->size();
      auto sums = device_buffer(size_t(m) * sizeof(float));
      float* sum = static_cast<float*>(sums->ptr);
      NN_CUDA_CHECK(cudaMemsetAsync(sum, 0, size_t(m) * sizeof(float), st()));
      k::prelu_backward_slope<T>(st(), n, channels_, inner_, x, dy, sum);
      k::store_float_grad<T>(st(), m, sum, grad_in<T>(in[1], accum[1]), accum[1]);
    }
  }

 private:
  int64_t channels_ = 1, inner_ = 1;
};

// splitmix64: the stream behind the Dropout mask keys.
uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Dropout (training form, as the CPU kernel: inference graphs replace Dropout with Identity). The mask is a
// hash of (key, element): a key per forward, from the op's seed and call count, or from the global generator
// when seed is -1; backward reuses the last forward's key, so it applies the same mask.
template <class T>
class CudaDropout : public CudaWithCpuSetup {
 public:
  CudaDropout(const OpSchema& s, const Context& c, const Attrs& a) : CudaWithCpuSetup(s, c, a), args_(attrs_) {}
  bool is_stochastic() const override { return true; }

 protected:
  // setup (the p check and the output shape) is the CPU kernel's.
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    if (args_.seed >= 0) {
      key_ = mix64(mix64(uint64_t(args_.seed)) ^ calls_++);
    } else {
      RandomEngine& g = global_random();
      const uint64_t high = g();
      key_ = mix64((high << 32) | uint64_t(g()));
    }
    has_key_ = true;
    const T* x = data_in<T>(in[0]);
    k::dropout_forward<T>(st(), in[0]->size(), x, data_out<T>(out[0]), float(args_.p), scale(), key_);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    NN_CHECK(has_key_) << "Dropout: backward before forward";
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    k::dropout_backward<T>(st(), in[0]->size(), dy, grad_in<T>(in[0], accum[0]), float(args_.p), scale(), key_,
                           accum[0]);
  }

 private:
  float scale() const { return float(1.0 / (1.0 - args_.p)); }
  ops::DropoutArgs args_;
  uint64_t calls_ = 0, key_ = 0;
  bool has_key_ = false;
};

template <class T>
using CudaCReLU = CudaConcatActivation<T, false>;
template <class T>
using CudaCELU = CudaConcatActivation<T, true>;

}  // namespace

void register_math_kernels(OpRegistry& r) {
  add_unary_kernels<k::Unary::kExp>(r, "Exp", true);
  add_unary_kernels<k::Unary::kLog>(r, "Log", true);
  add_unary_kernels<k::Unary::kAbs>(r, "Abs", true);
  add_unary_kernels<k::Unary::kSELU>(r, "SELU", true);
  add_unary_kernels<k::Unary::kSoftPlus>(r, "SoftPlus", true);
  add_unary_kernels<k::Unary::kBinarySigmoid>(r, "BinarySigmoid", true);
  add_unary_kernels<k::Unary::kBinaryTanh>(r, "BinaryTanh", true);
  add_float_and_half_kernels<CudaCReLU>(r, "CReLU");
  add_float_and_half_kernels<CudaCELU>(r, "CELU");
  add_float_and_half_kernels<CudaPReLU>(r, "PReLU");
  add_float_and_half_kernels<CudaDropout>(r, "Dropout");
  add_binary_kernels<k::Binary::kPow>(r, "Pow2", true);
  add_binary_kernels<k::Binary::kMaximum>(r, "Maximum2", true);
  add_binary_kernels<k::Binary::kMinimum>(r, "Minimum2", true);
  add_binary_kernels<k::Binary::kSigmoidCrossEntropy>(r, "SigmoidCrossEntropy", false);
  add_binary_kernels<k::Binary::kBinaryCrossEntropy>(r, "BinaryCrossEntropy", false);
  add_binary_kernels<k::Binary::kAbsoluteError>(r, "AbsoluteError", false);
  add_binary_kernels<k::Binary::kHuberLoss>(r, "HuberLoss", false);
  add_binary_kernels<k::Binary::kBinaryError>(r, "BinaryError", false);
  register_math_label_kernels(r);
}

}  // namespace nn::cuda
