// Context: ordered backend preference ("cudnn:half", "cuda:float", "cpu:float") and device id, as nnabla.
#pragma once
#include <functional>
#include <string>
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

// What the functions below ask of a GPU backend. Core knows no CUDA: the CUDA backend registers its hooks
// (libnn/src/cuda/device.cpp) as it registers its device with NdArray (register_device). With none
// registered, every GPU context is unavailable ("this nncli was built without CUDA").
struct GpuBackendHooks {
  std::function<std::string()> problem;         // why no device is usable ("" when one is)
  std::function<int()> device_count;            // devices this process can use
  std::function<void(int device)> synchronize;  // waits for the work queued on a device
};
void register_gpu_backend(GpuBackendHooks hooks);

// Why GPU contexts cannot run in this process ("" when they can): "this nncli was built without CUDA", or
// the CUDA runtime's reason ("no CUDA device is present", ...).
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
