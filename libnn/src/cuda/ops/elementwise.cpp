// CUDA Functions of the elementwise families: activations, scalar ops, broadcasting arithmetic, SquaredError.
#include "cuda/common.hpp"
#include "cuda/kernels/kernels.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "ops/detail/binary.hpp"

namespace nn::cuda {
namespace {

// The float parameter of each unary op, from its attributes.
float unary_parameter(k::Unary op, const Attrs& a) {
  switch (op) {
    case k::Unary::kLeakyReLU: return float(a.get_float("alpha", 0.1));
    case k::Unary::kELU: return float(a.get_float("alpha", 1.0));
    case k::Unary::kAddScalar:
    case k::Unary::kMulScalar:
    case k::Unary::kPowScalar:
    case k::Unary::kRSubScalar:
    case k::Unary::kRDivScalar: return float(a.get_float("val", 1.0));
    default: return 0.f;
  }
}
bool uses_output(k::Unary op) {
  return op == k::Unary::kSigmoid || op == k::Unary::kTanh || op == k::Unary::kSwish;
}

template <k::Unary kOp>
class CudaUnary : public CudaFunction {
 public:
  CudaUnary(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaFunction(s, c, a), alpha_(unary_parameter(kOp, a)) {}
  bool grad_depends_output_data(int, int) const override { return uses_output(kOp); }
  bool grad_depends_input_data(int, int) const override {
    return kOp != k::Unary::kSigmoid && kOp != k::Unary::kTanh && kOp != k::Unary::kAddScalar &&
           kOp != k::Unary::kMulScalar && kOp != k::Unary::kRSubScalar && kOp != k::Unary::kIdentity;
  }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(in[0]->shape(), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const float* x = data_in(in[0]);
    k::unary_forward(st(), kOp, in[0]->size(), x, data_out(out[0]), alpha_);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const float* x = grad_depends_input_data(0, 0) ? data_in(in[0]) : nullptr;
    const float* y = uses_output(kOp) ? data_in(out[0]) : nullptr;
    const float* dy = grad_out(out[0]);
    k::unary_backward(st(), kOp, in[0]->size(), x, y, dy, grad_in(in[0], accum[0]), alpha_, accum[0]);
  }

 private:
  float alpha_;
};

template <k::Binary kOp>
class CudaBinary : public CudaFunction {
 public:
  using CudaFunction::CudaFunction;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    auto plan = ops::make_broadcast_plan(in[0]->shape(), in[1]->shape(), type());
    NN_CHECK(plan.out_shape.size() <= size_t(k::kMaxDims))
        << type() << ": the CUDA kernel supports at most " << k::kMaxDims << " dimensions";
    dims_ = k::BroadcastDims{};
    dims_.ndim = int(plan.out_shape.size());
    for (int d = 0; d < dims_.ndim; ++d) {
      dims_.out_shape[d] = plan.out_shape[d];
      dims_.stride_a[d] = plan.stride_a[d];
      dims_.stride_b[d] = plan.stride_b[d];
    }
    same_ = plan.same;
    out[0]->reshape(plan.out_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const float* a = data_in(in[0]);
    const float* b = data_in(in[1]);
    k::binary_forward(st(), kOp, out[0]->size(), dims_, same_, a, b, data_out(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0] && !prop[1]) return;
    auto scope = enter();
    const float* a = data_in(in[0]);
    const float* b = data_in(in[1]);
    const float* dy = grad_out(out[0]);
    float* da = nullptr;
    float* db = nullptr;
    if (same_) {
      if (prop[0]) da = grad_in(in[0], accum[0]);
      if (prop[1]) db = grad_in(in[1], accum[1]);
    } else {
      if (prop[0]) da = grad_in_zeroed(in[0], accum[0]);
      if (prop[1]) db = grad_in_zeroed(in[1], accum[1]);
    }
    k::binary_backward(st(), kOp, out[0]->size(), dims_, same_, a, b, dy, da, db, accum[0], accum[1]);
  }

 private:
  k::BroadcastDims dims_;
  bool same_ = false;
};

}  // namespace

void register_elementwise_kernels(OpRegistry& r) {
  add_float_kernel<CudaUnary<k::Unary::kReLU>>(r, "ReLU");
  add_float_kernel<CudaUnary<k::Unary::kLeakyReLU>>(r, "LeakyReLU");
  add_float_kernel<CudaUnary<k::Unary::kELU>>(r, "ELU");
  add_float_kernel<CudaUnary<k::Unary::kSigmoid>>(r, "Sigmoid");
  add_float_kernel<CudaUnary<k::Unary::kTanh>>(r, "Tanh");
  add_float_kernel<CudaUnary<k::Unary::kSwish>>(r, "Swish");
  add_float_kernel<CudaUnary<k::Unary::kGELU>>(r, "GELU");
  add_float_kernel<CudaUnary<k::Unary::kAddScalar>>(r, "AddScalar");
  add_float_kernel<CudaUnary<k::Unary::kMulScalar>>(r, "MulScalar");
  add_float_kernel<CudaUnary<k::Unary::kPowScalar>>(r, "PowScalar");
  add_float_kernel<CudaUnary<k::Unary::kRSubScalar>>(r, "RSubScalar");
  add_float_kernel<CudaUnary<k::Unary::kRDivScalar>>(r, "RDivScalar");
  add_float_kernel<CudaUnary<k::Unary::kIdentity>>(r, "Identity");
  add_float_kernel<CudaBinary<k::Binary::kAdd>>(r, "Add2");
  add_float_kernel<CudaBinary<k::Binary::kSub>>(r, "Sub2");
  add_float_kernel<CudaBinary<k::Binary::kMul>>(r, "Mul2");
  add_float_kernel<CudaBinary<k::Binary::kDiv>>(r, "Div2");
  add_float_kernel<CudaBinary<k::Binary::kSquaredError>>(r, "SquaredError");
}

}  // namespace nn::cuda
