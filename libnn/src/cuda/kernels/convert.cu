// Dtype conversion between two copies of an array on one device (float <-> half <-> int32), so cudnn:half
// kernels and float kernels can share arrays without a trip through the host.
#include <cuda_fp16.h>

#include "cuda/kernels/kernels.hpp"
#include "cuda/kernels/launch.cuh"

namespace nn::cuda::k {
namespace {

template <class D, class S>
__device__ inline D convert_one(S v) {
  return D(v);
}
template <>
__device__ inline __half convert_one<__half, float>(float v) {
  return __float2half_rn(v);
}
template <>
__device__ inline float convert_one<float, __half>(__half v) {
  return __half2float(v);
}
template <>
__device__ inline __half convert_one<__half, int>(int v) {
  return __int2half_rn(v);
}
template <>
__device__ inline int convert_one<int, __half>(__half v) {
  return __half2int_rz(v);  // truncation, as the host conversion
}
template <>
__device__ inline int convert_one<int, float>(float v) {
  return int(v);
}

template <class D, class S>
__global__ void convert_kernel(int64_t n, const S* src, D* dst) {
  NN_GRID_LOOP(i, n) dst[i] = convert_one<D, S>(src[i]);
}

template <class D, class S>
void launch_convert(cudaStream_t s, int64_t n, const void* src, void* dst) {
  convert_kernel<D, S><<<blocks_for(n), kThreads, 0, s>>>(n, static_cast<const S*>(src), static_cast<D*>(dst));
  check_launch("convert_kernel");
}

template <class S>
bool convert_from(cudaStream_t s, void* dst, ElementType dst_type, const void* src, int64_t n) {
  switch (dst_type) {
    case ElementType::kFloat: launch_convert<float, S>(s, n, src, dst); return true;
    case ElementType::kHalf: launch_convert<__half, S>(s, n, src, dst); return true;
    case ElementType::kInt32: launch_convert<int, S>(s, n, src, dst); return true;
    default: return false;
  }
}

}  // namespace

bool convert_on_device(cudaStream_t s, void* dst, ElementType dst_type, const void* src, ElementType src_type,
                       int64_t n) {
  if (n == 0) return dst_type != ElementType::kOther && src_type != ElementType::kOther;
  switch (src_type) {
    case ElementType::kFloat: return convert_from<float>(s, dst, dst_type, src, n);
    case ElementType::kHalf: return convert_from<__half>(s, dst, dst_type, src, n);
    case ElementType::kInt32: return convert_from<int>(s, dst, dst_type, src, n);
    default: return false;
  }
}

}  // namespace nn::cuda::k
