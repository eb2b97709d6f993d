// Shared pieces of the CUDA Functions: error checks naming call and op, per-device stream and handles,
// device-side access to Variable data and grads.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <memory>
#include <string>
#include <vector>

#include "nn/core/error.hpp"
#include "nn/core/ndarray.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::cuda {

void check_cuda(cudaError_t status, const char* call);
void check_cublas(cublasStatus_t status, const char* call);
void check_cudnn(cudnnStatus_t status, const char* call);
#define NN_CUDA_CHECK(call) ::nn::cuda::check_cuda((call), #call)
#define NN_CUBLAS_CHECK(call) ::nn::cuda::check_cublas((call), #call)
#define NN_CUDNN_CHECK(call) ::nn::cuda::check_cudnn((call), #call)

// The op whose kernel runs on this thread, named by the error checks ("" outside kernels).
class OpScope {
 public:
  explicit OpScope(const std::string& op);
  ~OpScope();

 private:
  const std::string* previous_;
};
const std::string& current_op();

// Per device (created on first use, never destroyed): one stream, and cuBLAS/cuDNN handles bound to it.
void set_device(int device);
cudaStream_t stream(int device);
cublasHandle_t cublas(int device);
cudnnHandle_t cudnn(int device);
// Scratch memory from the caching allocator of the current device.
std::shared_ptr<Buffer> device_buffer(size_t bytes);
void launch_check(const char* kernel);  // checks cudaGetLastError after a launch

inline std::string device_name(int device) { return "cuda:" + std::to_string(device); }

// Base of the CUDA Functions: device selection, typed device access, the op scope.
class CudaFunction : public Function {
 public:
  using Function::Function;

 protected:
  // Call first in every *_impl: selects the device and names the op for error messages.
  OpScope enter() {
    set_device(ctx_.device_id);
    return OpScope(type());
  }
  std::string dev() const { return device_name(ctx_.device_id); }
  cudaStream_t st() const { return stream(ctx_.device_id); }
  const float* data_in(Variable* v) const { return v->data()->get<float>(dev()); }
  float* data_out(Variable* v) const { return v->data()->cast<float>(true, dev()); }
  const float* grad_out(Variable* v) const { return v->grad()->get<float>(dev()); }
  // Input grad to write; keeps the old content when accumulating.
  float* grad_in(Variable* v, bool accum) const { return v->grad()->cast<float>(!accum, dev()); }
  // As grad_in, zero-filled first when not accumulating (for kernels that add into it).
  float* grad_in_zeroed(Variable* v, bool accum) const;
};

// Registration shorthand: kernel F for op under backend ("cuda" or "cudnn"), type float.
template <class F>
void add_float_kernel(OpRegistry& r, const std::string& op, const std::string& backend = "cuda") {
  r.add_kernel(op, backend, "float", make_factory<F>());
}

}  // namespace nn::cuda
