// Finds the CUDA backend library (libnncli-cuda.so) beside the executable or in the build tree, opens it with
// dlopen the first time a GPU is asked about, and calls its entry point, which registers the backend's
// device, kernels and hooks. A CPU-only run never opens it, so it maps no CUDA library.
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "nn/core/context.hpp"

namespace nn {
namespace {

namespace fs = std::filesystem;

std::atomic<void*> g_backend{nullptr};  // the dlopen handle once the backend is loaded and registered

#ifdef NN_CUDA_BACKEND_FILE
// The folder of the running executable ("" when /proc/self/exe cannot be read).
fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

// Where the backend may be: <bin>/../<libdir> of an install, and the build tree's library folder when the
// executable is one of the build's own (an installed copy never reaches into a build tree).
std::vector<fs::path> candidate_paths() {
  std::vector<fs::path> out;
  const fs::path bin = executable_dir();
  if (bin.empty()) return out;
  out.push_back((bin / NN_CUDA_BACKEND_LIBDIR_FROM_BIN / NN_CUDA_BACKEND_FILE).lexically_normal());
  const std::string build = NN_CUDA_BACKEND_BUILD_TREE;
  if (bin.string().rfind(build + "/", 0) == 0 || bin.string() == build)
    out.push_back(fs::path(NN_CUDA_BACKEND_BUILD_DIR) / NN_CUDA_BACKEND_FILE);
  return out;
}

struct LoadResult {
  std::string path;     // the library found ("" when none)
  std::string problem;  // "" when loaded and registered
};

LoadResult load_once() {
  LoadResult r;
  std::string searched;
  for (const fs::path& p : candidate_paths()) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      r.path = p.string();
      break;
    }
    searched += (searched.empty() ? "" : ", ") + p.parent_path().string();
  }
  if (r.path.empty()) {
    r.problem = std::string("the CUDA backend is not installed (") + NN_CUDA_BACKEND_FILE + " not found in " +
                (searched.empty() ? std::string("the executable's folder") : searched) + ")";
    return r;
  }
  void* library = dlopen(r.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    r.problem = "the CUDA backend " + r.path + " could not be loaded: " + (why ? why : "unknown dlopen error");
    return r;
  }
  using Entry = void (*)();
  auto entry = reinterpret_cast<Entry>(dlsym(library, "nncli_cuda_backend_register"));
  if (!entry) {
    r.problem = "the CUDA backend " + r.path + " has no entry point nncli_cuda_backend_register";
    return r;
  }
  entry();
  g_backend.store(library, std::memory_order_release);
  return r;
}

const LoadResult& loaded() {
  static const LoadResult result = load_once();
  return result;
}
#endif

}  // namespace

std::string load_gpu_backend() {
#ifdef NN_CUDA_BACKEND_FILE
  return loaded().problem;
#else
  return "this nncli was built without CUDA";
#endif
}

void* gpu_backend_symbol(const char* name) {
#ifdef NN_CUDA_BACKEND_FILE
  void* library = g_backend.load(std::memory_order_acquire);
  return library ? dlsym(library, name) : nullptr;
#else
  (void)name;
  return nullptr;
#endif
}

std::string gpu_backend_path() {
#ifdef NN_CUDA_BACKEND_FILE
  return loaded().path;
#else
  return "";
#endif
}

}  // namespace nn
