// Fills the op registry with the CUDA kernels (explicit calls, no static registration objects).
#include "cuda/ops/cuda_ops.hpp"
#include "nn/cuda/cuda.hpp"

namespace nn::cuda {

void register_kernels(OpRegistry& r) {
  init_device();
  register_elementwise_kernels(r);
  register_strided_view_kernels(r);
  register_concat_split_stack_kernels(r);
  register_reduction_kernels(r);
  register_remap_kernels(r);
  register_linalg_kernels(r);
  register_softmax_kernels(r);
  register_convolution_kernels(r);
  register_pool_norm_kernels(r);
  register_math_kernels(r);
  register_augmentation_kernels(r);
}

}  // namespace nn::cuda
