// The CUDA backend's public entry points (built only with NN_WITH_CUDA; see libnn/src/cuda).
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
// Adds the cuda:float and cudnn:float kernels to the registry (called from its fill, after the CPU ones).
void register_kernels(OpRegistry& registry);

}  // namespace nn::cuda
