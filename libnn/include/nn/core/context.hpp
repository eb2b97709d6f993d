// Context: ordered backend preference ("cudnn:half", "cuda:float", "cpu:float") and device id, as nnabla.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nn {

struct Backend {
  std::string name;         // "cpu", "cuda", "cudnn"
  std::string type_config;  // "float", "half"
};

struct Context {
  std::vector<std::string> backends{"cpu:float"};
  std::string array_class;
  int device_id = 0;

  std::vector<Backend> parsed_backends() const;  // "cudnn:half" -> {cudnn, half}; missing type -> float
  bool is_cpu_only() const;
  bool uses_half() const;         // some backend runs with type_config "half" (mixed precision)
  std::string to_string() const;  // "cudnn:half,cpu:float (device 0)"
};

Context cpu_context();
// Parses nnabla_cli's -C/--context value: "cpu", "cuda", "cudnn", "cudnn:half" or a comma list; a numeric
// part is the device id as upstream's "cudnn[:DEVICE_ID]" ("cudnn:1", "cudnn:half:1").
Context parse_context(const std::string& spec);

// Averages float arrays on one GPU device in place over every process of a job (NCCL in the CUDA backend).
class DeviceReducer {
 public:
  virtual ~DeviceReducer() = default;
  virtual int device() const = 0;
  virtual void all_reduce_mean(const std::vector<std::pair<float*, size_t>>& arrays) = 0;
};
// broadcast_from_root(data, bytes): the host communicator's broadcast from rank 0 (carries NCCL's id).
using DeviceReducerFactory = std::function<std::unique_ptr<DeviceReducer>(
    int rank, int size, int device, const std::function<void(void*, size_t)>& broadcast_from_root)>;

// What the functions below ask of a GPU backend. Core knows no CUDA: the CUDA backend (libnncli-cuda.so,
// loaded by gpu_backend_loader.cpp when a GPU is first asked about) registers these hooks from its entry
// point, as it registers its device with NdArray (register_device) and its kernels with the op registry.
struct GpuBackendHooks {
  std::function<std::string()> problem;         // why no device is usable ("" when one is)
  std::function<int()> device_count;            // devices this process can use
  std::function<void(int device)> synchronize;  // waits for the work queued on a device
  DeviceReducerFactory make_reducer;            // empty when the backend was built without NCCL
};
void register_gpu_backend(GpuBackendHooks hooks);

// Loads the CUDA backend library once (its entry point registers the hooks above): "" when it is loaded,
// else why not, one line: "this nncli was built without CUDA", "the CUDA backend is not installed (...)",
// "the CUDA backend <path> could not be loaded: <the dynamic loader's reason>".
std::string load_gpu_backend();
// Why a GPU cannot be used, from what is known without loading the backend ("" when it may be): no backend
// library found, or no driver device node. gpu_unavailable_reason() asks it first, so a machine without a
// driver never maps the CUDA libraries.
std::string gpu_backend_unusable_before_loading();
// The backend library this process found ("" when none): beside libnncli.so, <bin>/../lib of the executable,
// or the build tree. Finding it loads nothing.
std::string gpu_backend_path();
// The address of the exported symbol `name` of the loaded backend; null while none is loaded (it never loads
// one). Layers above core take their hooks from it (the solvers' nncli_cuda_solver_device).
void* gpu_backend_symbol(const char* name);
// A reducer of device arrays across processes, or null when the backend has none (no NCCL, no backend).
std::unique_ptr<DeviceReducer> make_device_reducer(int rank, int size, int device,
                                                   const std::function<void(void*, size_t)>& broadcast_from_root);

// Why GPU contexts cannot run in this process ("" when they can): load_gpu_backend()'s reason, or the CUDA
// runtime's ("no NVIDIA driver (/dev/nvidiactl is absent)", "no CUDA device is present", ...).
std::string gpu_unavailable_reason();
// The "backend:type" entries this build can run now: cpu:float, plus cuda/cudnn when built with CUDA and
// a device is present.
std::vector<std::string> available_backends();
// Throws (kUnsupported) when a backend of ctx other than cpu is not built or has no device, naming what is
// available: "context 'cudnn:float' unavailable: this nncli was built without CUDA; available: cpu:float".
void check_context_available(const Context& ctx);
// ctx when check_context_available accepts it, else the CPU context (with a warning naming why).
Context context_or_cpu(const Context& ctx);
// Waits until the work queued on ctx's device has finished (nothing for CPU contexts): timers around
// asynchronous GPU kernels call it first.
void synchronize(const Context& ctx);

}  // namespace nn
