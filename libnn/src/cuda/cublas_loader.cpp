// Finds libcublas.so.<major> (the executable's run path, then the toolkit directory CMake saw) and binds
// the few cuBLAS functions the backend calls.
#include "cuda/cublas_loader.hpp"

#include <mutex>
#include <string>

#include "cuda/lazy_cuda_library.hpp"

namespace nn::cuda {

const CublasApi& cublas_api() {
  static CublasApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    void* library =
        open_cuda_library("libcublas.so." + std::to_string(CUBLAS_VER_MAJOR), NN_CUDA_LIBRARY_DIR, "cuBLAS");
    bind_cuda_symbol(library, api.create, "cublasCreate_v2", "cuBLAS");
    bind_cuda_symbol(library, api.set_stream, "cublasSetStream_v2", "cuBLAS");
    bind_cuda_symbol(library, api.gemm_strided_batched, "cublasGemmStridedBatchedEx", "cuBLAS");
    bind_cuda_symbol(library, api.status_string, "cublasGetStatusString", "cuBLAS");
  });
  return api;
}

}  // namespace nn::cuda
