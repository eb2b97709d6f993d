// Libraries opened with dlopen on first use rather than mapped and relocated at every start: those a few
// subcommands need (libcurl, libarchive, Graphviz, PLplot, MPI) and those of the CUDA backend (cuBLAS, NCCL).
#pragma once
#include <dlfcn.h>

#include <initializer_list>
#include <string>

#include "nn/core/error.hpp"

namespace nn {

// The first of `candidates` (a path or a soname each, tried in order) that opens; an nn::Error with `code` naming
// `what`, the first candidate and the loader's reason when none does. RTLD_GLOBAL for libraries whose own plugins
// resolve symbols against them (Graphviz, PLplot drivers, MPI).
inline void* open_lazy_library(std::initializer_list<std::string> candidates, const char* what,
                               int scope = RTLD_LOCAL, ErrorCode code = ErrorCode::kInvalid) {
  std::string why;
  for (const std::string& name : candidates) {
    if (void* lib = dlopen(name.c_str(), RTLD_NOW | scope)) return lib;
    why = dlerror();
  }
  NN_FAIL(code) << "cannot load " << what << " (" << *candidates.begin() << "): " << why;
}

// `out` = the function `name` of `lib`; an nn::Error with `code` when it has none.
template <class F>
void lazy_symbol(void* lib, const char* name, F& out, ErrorCode code = ErrorCode::kInvalid) {
  out = reinterpret_cast<F>(dlsym(lib, name));
  NN_CHECK_CODE(out != nullptr, code) << "library function " << name << " not found";
}

}  // namespace nn
