// CUDA libraries the backend opens on first use (cuBLAS, NCCL): by soname (the backend's run path), then in
// the folder CMake found them in; their symbols are bound one by one.
#pragma once
#include <dlfcn.h>

#include <string>

#include "nn/core/error.hpp"

namespace nn::cuda {

// The library `soname` (e.g. "libcublas.so.13"), else `dir`/`soname`; nn::Error (unsupported) naming `what`.
inline void* open_cuda_library(const std::string& soname, const std::string& dir, const char* what) {
  std::string why;
  for (const std::string& name : {soname, dir + "/" + soname}) {
    if (void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    why = dlerror();
  }
  NN_FAIL(ErrorCode::kUnsupported) << what << " could not be loaded (" << soname << "): " << why;
}

// `function` = the symbol `name` of `library`; nn::Error naming `what` when it has none.
template <class F>
void bind_cuda_symbol(void* library, F& function, const char* name, const char* what) {
  function = reinterpret_cast<F>(dlsym(library, name));
  NN_CHECK_CODE(function != nullptr, ErrorCode::kUnsupported) << what << " has no symbol " << name;
}

}  // namespace nn::cuda
