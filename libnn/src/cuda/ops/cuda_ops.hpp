// The CUDA op files' registration entry points and a base for CUDA Functions whose setup (shape checks and
// output shapes) is the CPU kernel's own.
#pragma once
#include "cuda/common.hpp"
#include "ops/activation/axis_split.hpp"

namespace nn::cuda {

void register_elementwise_kernels(OpRegistry& r);
void register_strided_view_kernels(OpRegistry& r);        // ops/strided_views.cpp: Reshape, Transpose, Slice, ...
void register_concat_split_stack_kernels(OpRegistry& r);  // ops/concat_split_stack.cpp
void register_reduction_kernels(OpRegistry& r);           // ops/reductions.cpp: Sum, Mean, Max, Min, Prod
void register_remap_kernels(OpRegistry& r);               // ops/remap.cpp: Pad, RandomFlip, RandomShift
void register_linalg_kernels(OpRegistry& r);
void register_softmax_kernels(OpRegistry& r);
void register_convolution_kernels(OpRegistry& r);   // ops/convolution.cpp (cuDNN)
void register_pool_norm_kernels(OpRegistry& r);     // ops/pooling.cpp, ops/batch_norm.cpp (cuDNN)
void register_math_kernels(OpRegistry& r);          // ops/math.cpp: more activations, arithmetic, losses
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
    split_ = ops::split_at_axis(s, ops::axis_argument(attrs_, s));
  }
  ops::AxisSplit split_;
};

}  // namespace nn::cuda
