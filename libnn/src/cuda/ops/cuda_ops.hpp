// The CUDA op files' registration entry points and a base for CUDA Functions whose setup (shape checks and
// output shapes) is the CPU kernel's own.
#pragma once
#include "cuda/common.hpp"
#include "ops/activation/axis_split.hpp"

namespace nn::cuda {

void register_elementwise_kernels(OpRegistry& r);
void register_array_kernels(OpRegistry& r);
void register_linalg_kernels(OpRegistry& r);
void register_softmax_kernels(OpRegistry& r);
void register_convolution_kernels(OpRegistry& r);   // ops/convolution.cpp (cuDNN)
void register_pool_norm_kernels(OpRegistry& r);     // ops/pooling.cpp, ops/batch_norm.cpp (cuDNN)
void register_math_kernels(OpRegistry& r);          // ops/math.cpp: more activations, arithmetic, losses
void register_shape_kernels(OpRegistry& r);         // ops/shape.cpp: split/stack/flip/pad/..., reductions
void register_augmentation_kernels(OpRegistry& r);  // ops/image_augmentation.cpp

// setup_impl runs the CPU kernel's setup, so validation, error texts and output shapes are the CPU ones.
class CudaWithCpuSetup : public CudaFunction {
 public:
  CudaWithCpuSetup(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaFunction(s, c, a), cpu_(OpRegistry::instance().create(s.name, a, cpu_context())) {}
  bool grad_depends_input_data(int i, int j) const override { return cpu_->grad_depends_input_data(i, j); }
  bool grad_depends_output_data(int i, int o) const override { return cpu_->grad_depends_output_data(i, o); }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { cpu_->setup(in, out); }
  FunctionPtr cpu_;
};

// A CudaWithCpuSetup Function working along its `axis` attribute (default: the last axis), viewed as
// (outer, size, inner): Softmax, LogSoftmax and the label ops.
class CudaAxisOp : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    const Shape& s = in[0]->shape();
    split_ = ops::split_at_axis(s, normalize_axis(attrs_.get_int("axis", int64_t(s.size()) - 1), s.size(), "axis"));
  }
  ops::AxisSplit split_;
};

}  // namespace nn::cuda
