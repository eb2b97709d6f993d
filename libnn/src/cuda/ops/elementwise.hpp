// CUDA Function templates of the elementwise families, on float or __half storage: unary ops (activations,
// math, scalar ops) and broadcasting binary ops (arithmetic, elementwise losses). Registered by
// elementwise.cpp and math.cpp.
#pragma once
#include <type_traits>

#include "cuda/kernels/kernels.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "ops/detail/binary.hpp"
#include "ops/detail/unary_params.hpp"

namespace nn::cuda {

// Whether a unary op's derivative reads x / y; kept equal to the CPU kernels' kUsesInput / kUsesOutput.
inline bool unary_reads_input(k::Unary op) {
  switch (op) {
    case k::Unary::kSigmoid:
    case k::Unary::kTanh:
    case k::Unary::kAddScalar:
    case k::Unary::kMulScalar:
    case k::Unary::kRSubScalar:
    case k::Unary::kIdentity:
    case k::Unary::kExp: return false;
    default: return true;
  }
}
inline bool unary_reads_output(k::Unary op) {
  return op == k::Unary::kSigmoid || op == k::Unary::kTanh || op == k::Unary::kSwish || op == k::Unary::kExp;
}

// The float parameters of each unary op, read by the CPU kernels' own argument structs.
inline k::UnaryParams unary_params(k::Unary op, const Attrs& a) {
  k::UnaryParams p;
  switch (op) {
    case k::Unary::kLeakyReLU:
    case k::Unary::kELU: p.p0 = ops::AlphaParams(a).alpha; break;
    case k::Unary::kAddScalar:
    case k::Unary::kMulScalar:
    case k::Unary::kPowScalar:
    case k::Unary::kRSubScalar:
    case k::Unary::kRDivScalar: p.p0 = ops::ValParams(a).val; break;
    case k::Unary::kSELU: {
      const ops::SeluParams selu(a);
      p.p0 = selu.scale;
      p.p1 = selu.alpha;
      break;
    }
    case k::Unary::kSoftPlus: p.p0 = ops::BetaParams(a).beta; break;
    default: break;
  }
  return p;
}

template <class T, k::Unary kOp>
class CudaUnary : public CudaFunction {
 public:
  CudaUnary(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaFunction(s, c, a), params_(unary_params(kOp, attrs_)) {}
  bool grad_depends_output_data(int, int) const override { return unary_reads_output(kOp); }
  bool grad_depends_input_data(int, int) const override { return unary_reads_input(kOp); }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(in[0]->shape(), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    k::unary_forward<T>(st(), kOp, in[0]->size(), x, data_out<T>(out[0]), params_);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const T* x = unary_reads_input(kOp) ? data_in<T>(in[0]) : nullptr;
    const T* y = unary_reads_output(kOp) ? data_in<T>(out[0]) : nullptr;
    const T* dy = grad_out<T>(out[0]);
    k::unary_backward<T>(st(), kOp, in[0]->size(), x, y, dy, grad_in<T>(in[0], accum[0]), params_, accum[0]);
  }

 private:
  k::UnaryParams params_;
};

// Broadcasting binary op. Setup is the CPU kernel's (shape checks of the same-shape losses included).
// SigmoidCrossEntropy refuses a target gradient; BinaryError is forward-only and leaves zero gradients.
template <class T, k::Binary kOp>
class CudaBinary : public CudaWithCpuSetup {
 public:
  CudaBinary(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaWithCpuSetup(s, c, a), param_(kOp == k::Binary::kHuberLoss ? ops::DeltaParams(attrs_).delta : 0.f) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    // The collapsed view (merged dims, size-1 dims dropped) indexes the output like the full shape.
    const auto plan = ops::make_broadcast_plan(in[0]->shape(), in[1]->shape(), type());
    NN_CHECK(plan.group_size.size() <= size_t(k::kMaxDims))
        << type() << ": the CUDA kernel supports at most " << k::kMaxDims << " broadcast groups";
    dims_ = k::BroadcastDims{};
    dims_.ndim = int(plan.group_size.size());
    for (int d = 0; d < dims_.ndim; ++d) {
      dims_.out_shape[d] = plan.group_size[size_t(d)];
      dims_.stride_a[d] = plan.group_stride_a[size_t(d)];
      dims_.stride_b[d] = plan.group_stride_b[size_t(d)];
    }
    same_ = plan.same;
    full_a_ = plan.full_a;
    full_b_ = plan.full_b;
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* a = data_in<T>(in[0]);
    const T* b = data_in<T>(in[1]);
    k::binary_forward<T>(st(), kOp, out[0]->size(), dims_, same_, a, b, data_out<T>(out[0]), param_);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (kOp == k::Binary::kSigmoidCrossEntropy) {
      NN_CHECK(!prop[1]) << type() << ": no gradient with respect to the target (input 1)";
    }
    if (!prop[0] && !prop[1]) return;
    auto scope = enter();
    if (kOp == k::Binary::kBinaryError) {
      for (size_t i = 0; i < 2; ++i)
        if (prop[i]) grad_in_zeroed<T>(in[i], accum[i]);
      return;
    }
    const T* a = data_in<T>(in[0]);
    const T* b = data_in<T>(in[1]);
    const T* dy = grad_out<T>(out[0]);
    PendingGrad ga = grad_target(in[0], prop[0], accum[0], full_a_);
    PendingGrad gb = grad_target(in[1], prop[1], accum[1], full_b_);
    k::binary_backward<T>(st(), kOp, out[0]->size(), dims_, same_, a, b, dy, param_, ga.grad, gb.grad);
    finish(ga);
    finish(gb);
  }

 private:
  // One input's grad: written directly when it has the output's layout, else summed by atomic adds into
  // float (the grad itself for float storage; a scratch buffer stored into the __half grad afterwards).
  struct PendingGrad {
    k::BinaryGrad<T> grad;
    std::shared_ptr<Buffer> scratch;
    T* dst = nullptr;
    int64_t size = 0;
    bool accum = false;
  };
  PendingGrad grad_target(Variable* v, bool prop, bool accum, bool full) const {
    PendingGrad g;
    if (!prop) return g;
    if (full) {
      g.grad.direct = grad_in<T>(v, accum);
      g.grad.accum = accum;
    } else if constexpr (std::is_same_v<T, float>) {
      g.grad.atomic = grad_in_zeroed<float>(v, accum);
    } else {
      g.size = v->size();
      g.scratch = device_buffer(size_t(g.size) * sizeof(float));
      NN_CUDA_CHECK(cudaMemsetAsync(g.scratch->ptr, 0, size_t(g.size) * sizeof(float), st()));
      g.grad.atomic = static_cast<float*>(g.scratch->ptr);
      g.dst = grad_in<T>(v, accum);
      g.accum = accum;
    }
    return g;
  }
  void finish(const PendingGrad& g) const {
    if (g.scratch) k::store_float_grad<T>(st(), g.size, g.grad.atomic, g.dst, g.accum);
  }

  float param_;
  k::BroadcastDims dims_;
  bool same_ = false, full_a_ = false, full_b_ = false;
};

// Registers CudaUnary / CudaBinary for op under "cuda": float, and __half when `half`.
template <k::Unary kOp>
void add_unary_kernels(OpRegistry& r, const std::string& op, bool half) {
  add_float_kernel<CudaUnary<float, kOp>>(r, op);
  if (half) add_half_kernel<CudaUnary<__half, kOp>>(r, op);
}
template <k::Binary kOp>
void add_binary_kernels(OpRegistry& r, const std::string& op, bool half) {
  add_float_kernel<CudaBinary<float, kOp>>(r, op);
  if (half) add_half_kernel<CudaBinary<__half, kOp>>(r, op);
}

}  // namespace nn::cuda
