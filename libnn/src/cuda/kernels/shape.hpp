// Launchers of the shape and reduction kernels (kernels/shape.cu): Max/Min with their index, Prod, and table
// remaps (Pad, RandomFlip/Shift).
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/kernels/kernels.hpp"

namespace nn::cuda::k {

// Max (is_max) or Min over the reduced index space of every output: the first extreme in reduced C order
// wins ties; a NaN first element wins (as a sequential scan with strict comparisons). y (value) and index
// (position in the reduced space, as float) may be null; selected[o] receives the input offset chosen.
void arg_extreme_forward(cudaStream_t s, const ReduceDims& d, bool is_max, const float* x, float* y, float* index,
                         int64_t* selected);
void arg_extreme_forward(cudaStream_t s, const ReduceDims& d, bool is_max, const __half* x, __half* y,
                         float* index, int64_t* selected);
// dx[selected[o]] += dy[o] (dx zeroed or holding the grad to accumulate onto).
void scatter_selected(cudaStream_t s, int64_t outputs, const int64_t* selected, const float* dy, float* dx);
void scatter_selected(cudaStream_t s, int64_t outputs, const int64_t* selected, const __half* dy, __half* dx);

// Prod over the reduced index space (products in double).
void prod_forward(cudaStream_t s, const ReduceDims& d, const float* x, float* y);
void prod_forward(cudaStream_t s, const ReduceDims& d, const __half* x, __half* y);
// dx (=|+=) dy * product of the other elements, without division when a zero is present.
void prod_backward(cudaStream_t s, const ReduceDims& d, const float* x, const float* dy, float* dx, bool accum);
void prod_backward(cudaStream_t s, const ReduceDims& d, const __half* x, const __half* dy, __half* dx, bool accum);

// Per-axis index tables over `samples` independent blocks: output element (s, i_0..i_n) reads input
// (s, table[i_0], ..., table[i_n]), or `fill` where any table entry is -1. All table arrays are int64:
//   forward[s * forward_size + forward_start[d] + i]            input index along d, or -1
//   first[s * first_size + first_start[d] + j] .. [... + j + 1]  range in `sources` listing the output
//   sources[s * sources_size + r]                                indices along d that read input index j
struct RemapDims {
  int ndim = 0;
  int64_t samples = 1;
  int64_t out_shape[kMaxDims] = {}, in_shape[kMaxDims] = {};
  int64_t forward_start[kMaxDims] = {}, first_start[kMaxDims] = {};
  int64_t forward_size = 0, first_size = 0, sources_size = 0;
};
struct RemapTables {
  const int64_t* forward = nullptr;
  const int64_t* first = nullptr;
  const int64_t* sources = nullptr;
};
void remap_forward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const float* x, float* y, float fill);
void remap_forward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const __half* x, __half* y,
                   float fill);
// dx (=|+=) sum of dy over the output elements reading each input element (a gather: deterministic).
void remap_backward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const float* dy, float* dx,
                    bool accum);
void remap_backward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const __half* dy, __half* dx,
                    bool accum);

#ifdef __CUDACC__
// Device-side loads and stores of the storage types, in float.
__device__ inline float load_f(const float* p) { return *p; }
__device__ inline float load_f(const __half* p) { return __half2float(*p); }
__device__ inline void store_f(float* p, float v) { *p = v; }
__device__ inline void store_f(__half* p, float v) { *p = __float2half_rn(v); }
#endif

}  // namespace nn::cuda::k
