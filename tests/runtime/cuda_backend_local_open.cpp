// The CUDA backend loads into libnncli opened with dlopen(RTLD_LOCAL), as an interpreter's foreign-function
// module opens it (its symbols hidden from later libraries unless the loader makes it global). Exit 0 when the
// backend loads; else its reason on stderr and exit 1.
#include <dlfcn.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  using Loader = std::string (*)();  // nn::load_gpu_backend, asked by its symbol as an FFI would
  auto load = reinterpret_cast<Loader>(dlsym(lib, "_ZN2nn16load_gpu_backendB5cxx11Ev"));
  if (!load) {
    std::fprintf(stderr, "libnncli does not export nn::load_gpu_backend\n");
    return 1;
  }
  const std::string problem = load();
  if (!problem.empty()) std::fprintf(stderr, "%s\n", problem.c_str());
  return problem.empty() ? 0 : 1;
}
