// The backend's entry point, called by libnn's loader (core/gpu_backend_loader.cpp) after dlopen: registers
// the "cuda" device with NdArray, the context hooks and the cuda/cudnn kernels (explicit calls, no static
// registration objects); the solvers' hooks are exported for the Solver base to look up.
#include "cuda/nccl_reducer.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "nn/core/context.hpp"
#include "nn/cuda/cuda.hpp"
#include "nn/cuda/solver_update.hpp"
#include "nn/ops/op_registry.hpp"

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

extern "C" __attribute__((visibility("default"))) void nncli_cuda_backend_register() {
  using namespace nn;
  GpuBackendHooks hooks{cuda::device_problem, cuda::device_count, cuda::synchronize, {}};
#ifdef NN_WITH_NCCL
  hooks.make_reducer = cuda::make_nccl_reducer;
#endif
  register_gpu_backend(std::move(hooks));
  cuda::register_kernels(OpRegistry::instance());  // after the CPU kernels: the CUDA ones reuse their schemas
}

// The solvers' device hooks (nn/solvers/solver_device.hpp: looked up by name, as solvers sit above core).
extern "C" __attribute__((visibility("default"))) const nn::SolverDeviceHooks* nncli_cuda_solver_device() {
  using namespace nn;
  static const SolverDeviceHooks hooks{cuda::grad_on_device,         cuda::update_on_device,
                                       cuda::weight_decay_on_device, cuda::clip_grad_by_norm_on_device,
                                       cuda::scale_grad_on_device,   cuda::any_grad_on_device};
  return &hooks;
}
