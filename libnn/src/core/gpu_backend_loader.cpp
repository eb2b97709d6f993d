// Finds the CUDA backend library (libnncli-cuda.so) beside the object holding the engine (the nncli executable
// or libnncli.so) or in the build tree, opens it with dlopen the first time a GPU is asked for, and calls its
// entry point, which registers the backend's device, kernels and hooks. A CPU-only run never opens it.
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
// The file that holds this code: the executable, or the shared library an embedding program linked (libnncli).
fs::path engine_object() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&load_gpu_backend), &info) == 0 || !info.dli_fname || !*info.dli_fname)
    return {};
  std::error_code ec;
  fs::path p = fs::canonical(info.dli_fname, ec);
  if (ec) p = fs::canonical("/proc/self/exe", ec);  // the main program's name may be given as argv[0]
  return ec ? fs::path() : p;
}

bool is_main_program(const fs::path& object) {
  std::error_code ec;
  return fs::equivalent(object, "/proc/self/exe", ec);
}

// Where the backend may be: beside libnncli.so, <bin>/../<libdir> of an installed executable, and the build
// tree's library folder when the engine is one of the build's own (an installed copy never reaches into it).
std::vector<fs::path> candidate_paths() {
  std::vector<fs::path> out;
  const fs::path object = engine_object();
  if (object.empty()) return out;
  const fs::path dir = object.parent_path();
  if (is_main_program(object))
    out.push_back((dir / NN_CUDA_BACKEND_LIBDIR_FROM_BIN / NN_CUDA_BACKEND_FILE).lexically_normal());
  else
    out.push_back(dir / NN_CUDA_BACKEND_FILE);
  const std::string build = NN_CUDA_BACKEND_BUILD_TREE;
  if (dir.string().rfind(build + "/", 0) == 0 || dir.string() == build)
    out.push_back(fs::path(NN_CUDA_BACKEND_BUILD_DIR) / NN_CUDA_BACKEND_FILE);
  return out;
}

struct Found {
  std::string path;      // the library ("" when none)
  std::string searched;  // the folders looked in
};

const Found& found() {
  static const Found result = [] {
    Found f;
    for (const fs::path& p : candidate_paths()) {
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) {
        f.path = p.string();
        break;
      }
      f.searched += (f.searched.empty() ? "" : ", ") + p.parent_path().string();
    }
    return f;
  }();
  return result;
}

std::string not_installed() {
  const Found& f = found();
  return std::string("the CUDA backend is not installed (") + NN_CUDA_BACKEND_FILE + " not found in " +
         (f.searched.empty() ? std::string("the engine's folder") : f.searched) + ")";
}

// The backend binds to the engine's symbols (namespace nn). An executable exports them to every library; a
// shared libnncli opened by a program with RTLD_LOCAL (an interpreter's foreign-function module) is made global
// first, so the backend finds them there too.
void make_engine_global() {
  const fs::path object = engine_object();
  if (!object.empty() && !is_main_program(object))
    (void)dlopen(object.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

std::string load_once() {
  const Found& f = found();
  if (f.path.empty()) return not_installed();
  make_engine_global();
  void* library = dlopen(f.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    return "the CUDA backend " + f.path + " could not be loaded: " + (why ? why : "unknown dlopen error");
  }
  using Entry = void (*)();
  auto entry = reinterpret_cast<Entry>(dlsym(library, "nncli_cuda_backend_register"));
  if (!entry) return "the CUDA backend " + f.path + " has no entry point nncli_cuda_backend_register";
  entry();
  g_backend.store(library, std::memory_order_release);
  return "";
}
#endif

}  // namespace

std::string load_gpu_backend() {
#ifdef NN_CUDA_BACKEND_FILE
  static const std::string problem = load_once();
  return problem;
#else
  return "this nncli was built without CUDA";
#endif
}

std::string gpu_backend_unusable_before_loading() {
#ifdef NN_CUDA_BACKEND_FILE
  if (g_backend.load(std::memory_order_acquire)) return "";
  if (found().path.empty()) return not_installed();
  // The driver's device nodes (Linux, WSL): without them the backend and the CUDA libraries stay unmapped.
  if (access("/dev/nvidiactl", F_OK) != 0 && access("/dev/dxg", F_OK) != 0)
    return "no NVIDIA driver (/dev/nvidiactl is absent)";
  return "";
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
  return found().path;
#else
  return "";
#endif
}

}  // namespace nn
