// The CUDA backend's functions inside libnncli-cuda.so (libnn/src/cuda); the engine reaches them through hooks.
#pragma once
#include <string>

namespace nn {
class OpRegistry;
}

namespace nn::cuda {

// Number of CUDA devices this process can use: 0 when there is none or the driver reports an error.
int device_count();
// Why no device is usable, e.g. "cudaGetDeviceCount: no CUDA-capable device is detected" ("" when usable).
std::string device_problem();
// Registers the "cuda" device (allocator and host<->device copies) with NdArray. Idempotent.
void init_device();
// Waits for every kernel and copy queued on `device`'s stream.
void synchronize(int device);
// The stream every kernel of `device` runs on (a cudaStream_t), for libraries such as NCCL to join.
void* device_stream(int device);
// Adds the cuda:float and cudnn:float kernels to the registry (from the entry point, after the CPU ones).
void register_kernels(OpRegistry& registry);

}  // namespace nn::cuda
