// Finds libcublas.so.<major> (the executable's run path, then the toolkit directory CMake saw) and binds
// the few cuBLAS functions the backend calls.
#include "cuda/cublas_loader.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "nn/core/error.hpp"

namespace nn::cuda {
namespace {

void* open_cublas() {
  const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  std::string why;
  for (const std::string& name : {soname, std::string(NN_CUDA_LIBRARY_DIR) + "/" + soname}) {
    if (void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    why = dlerror();
  }
  NN_FAIL(ErrorCode::kUnsupported) << "cuBLAS could not be loaded (" << soname << "): " << why;
}

template <class F>
void bind(void* library, F& function, const char* symbol) {
  function = reinterpret_cast<F>(dlsym(library, symbol));
  NN_CHECK_CODE(function != nullptr, ErrorCode::kUnsupported) << "cuBLAS has no symbol " << symbol;
}

}  // namespace

const CublasApi& cublas_api() {
  static CublasApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    void* library = open_cublas();
    bind(library, api.create, "cublasCreate_v2");
    bind(library, api.set_stream, "cublasSetStream_v2");
    bind(library, api.gemm_strided_batched, "cublasGemmStridedBatchedEx");
    bind(library, api.status_string, "cublasGetStatusString");
  });
  return api;
}

}  // namespace nn::cuda
