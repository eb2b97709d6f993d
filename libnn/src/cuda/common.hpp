// Shared pieces of the CUDA Functions: error checks naming call and op, per-device stream and handles,
// device-side access to Variable data and grads.
#pragma once
#include <cublas_v2.h>
#include <cuda_fp16.h>
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

// The NdArray dtype of a device element type: float (cuda:float contexts) or __half (cudnn:half).
template <class T>
struct DeviceType;
template <>
struct DeviceType<float> {
  static constexpr DType value = DType::kFloat32;
};
template <>
struct DeviceType<__half> {
  static constexpr DType value = DType::kFloat16;
};

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
  // Typed device access; T is float or __half (the storage type of the kernel: cudnn:half kernels read and
  // write fp16 copies, converted on the device from whatever copy is newest).
  template <class T = float>
  const T* data_in(Variable* v) const {
    return static_cast<const T*>(v->data()->get_raw(ArrayKey{DeviceType<T>::value, dev()}));
  }
  template <class T = float>
  T* data_out(Variable* v) const {
    return static_cast<T*>(v->data()->cast_raw(ArrayKey{DeviceType<T>::value, dev()}, true));
  }
  template <class T = float>
  const T* grad_out(Variable* v) const {
    return static_cast<const T*>(v->grad()->get_raw(ArrayKey{DeviceType<T>::value, dev()}));
  }
  // Input grad to write; keeps the old content when accumulating.
  template <class T = float>
  T* grad_in(Variable* v, bool accum) const {
    return static_cast<T*>(v->grad()->cast_raw(ArrayKey{DeviceType<T>::value, dev()}, !accum));
  }
  // As grad_in, zero-filled first when not accumulating (for kernels that add into it).
  template <class T = float>
  T* grad_in_zeroed(Variable* v, bool accum) const {
    T* p = grad_in<T>(v, accum);
    if (!accum) NN_CUDA_CHECK(cudaMemsetAsync(p, 0, size_t(v->size()) * sizeof(T), st()));
    return p;
  }
};

// Registration shorthand: kernel F for op under backend ("cuda" or "cudnn"), type float or half.
template <class F>
void add_float_kernel(OpRegistry& r, const std::string& op, const std::string& backend = "cuda") {
  r.add_kernel(op, backend, "float", make_factory<F>());
}
template <class F>
void add_half_kernel(OpRegistry& r, const std::string& op, const std::string& backend = "cuda") {
  r.add_kernel(op, backend, "half", make_factory<F>());
}
// Both: K<float> as float and K<__half> as half.
template <template <class> class K>
void add_float_and_half_kernels(OpRegistry& r, const std::string& op, const std::string& backend = "cuda") {
  add_float_kernel<K<float>>(r, op, backend);
  add_half_kernel<K<__half>>(r, op, backend);
}

}  // namespace nn::cuda
