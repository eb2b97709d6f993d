// Finds libcublas.so.<major> (by soname through the run path, then in the toolkit directory CMake saw) and binds
// the few cuBLAS functions the backend calls.
#include "cuda/cublas_loader.hpp"

#include <mutex>
#include <string>

#include "nn/core/lazy_library.hpp"

namespace nn::cuda {

const CublasApi& cublas_api() {
  static CublasApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* library = open_lazy_library({soname, std::string(NN_CUDA_LIBRARY_DIR) + "/" + soname}, "cuBLAS",
                                      RTLD_LOCAL, ErrorCode::kUnsupported);
    lazy_symbol(library, "cublasCreate_v2", api.create, ErrorCode::kUnsupported);
    lazy_symbol(library, "cublasSetStream_v2", api.set_stream, ErrorCode::kUnsupported);
    lazy_symbol(library, "cublasGemmStridedBatchedEx", api.gemm_strided_batched, ErrorCode::kUnsupported);
    lazy_symbol(library, "cublasGetStatusString", api.status_string, ErrorCode::kUnsupported);
  });
  return api;
}

}  // namespace nn::cuda
