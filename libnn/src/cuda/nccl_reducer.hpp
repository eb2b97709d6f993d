// Gradient averaging on CUDA devices with NCCL for `nncli -m train -C cudnn` (built when CMake finds NCCL
// beside the CUDA toolkit: NN_WITH_NCCL). The host communicator (MPI) carries NCCL's unique id.
#pragma once
#include "nn/core/context.hpp"

namespace nn::cuda {

// A reducer with one NCCL communicator on `device` (collective: every process makes its reducer at the same
// point); its all-reduces run on the engine's stream of the device and wait for the result.
std::unique_ptr<DeviceReducer> make_nccl_reducer(int rank, int size, int device,
                                                 const std::function<void(void*, size_t)>& broadcast_from_root);

}  // namespace nn::cuda
