// Libraries a few subcommands need (libcurl, libarchive, Graphviz, PLplot, MPI), opened with dlopen on first use
// rather than mapped and relocated at every nncli start.
#pragma once
#include <dlfcn.h>

#include "nn/core/error.hpp"

namespace nn {

// The library at `path` (its build-time file), else by `soname`; an nn::Error naming `what` when neither opens.
// RTLD_GLOBAL for libraries whose own plugins resolve symbols against them (Graphviz, PLplot drivers).
inline void* open_lazy_library(const char* path, const char* soname, const char* what, int scope = RTLD_LOCAL) {
  void* lib = dlopen(path, RTLD_NOW | scope);
  if (!lib) lib = dlopen(soname, RTLD_NOW | scope);
  NN_CHECK(lib) << "cannot load " << what << " (" << path << "): " << dlerror();
  return lib;
}

// `out` = the function `name` of `lib`.
template <class F>
void lazy_symbol(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, name));
  NN_CHECK(out) << "library function " << name << " not found";
}

}  // namespace nn
