// cuBLAS entry points loaded on first use (dlopen): linking cuBLAS makes every process pay its ~0.1 s static
// initialisation at start-up, CPU-only runs of nncli included.
#pragma once
#include <cublas_v2.h>

namespace nn::cuda {

struct CublasApi {
  cublasStatus_t (*create)(cublasHandle_t*) = nullptr;
  cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t) = nullptr;
  cublasStatus_t (*gemm_strided_batched)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                         const void*, const void*, cudaDataType, int, long long, const void*,
                                         cudaDataType, int, long long, const void*, void*, cudaDataType, int,
                                         long long, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  const char* (*status_string)(cublasStatus_t) = nullptr;
};

// Loads libcublas on the first call (thread-safe); throws nn::Error naming the library when it cannot.
const CublasApi& cublas_api();

}  // namespace nn::cuda
