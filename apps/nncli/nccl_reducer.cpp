// NcclReducer: one NCCL communicator per process on its CUDA device; grouped in-place ncclAvg all-reduces.
#ifdef NNCLI_WITH_NCCL
#include "nccl_reducer.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include "nn/core/error.hpp"
#include "nn/cuda/cuda.hpp"

namespace nncli {

namespace {

void check_nccl(ncclResult_t status, const char* call, int rank) {
  NN_CHECK(status == ncclSuccess) << call << " failed on rank " << rank << ": " << ncclGetErrorString(status);
}
void check_cuda(cudaError_t status, const char* call, int rank) {
  NN_CHECK(status == cudaSuccess) << call << " failed on rank " << rank << ": " << cudaGetErrorString(status);
}

}  // namespace

struct NcclReducer::State {
  ncclComm_t comm = nullptr;
  int rank = 0;
};

NcclReducer::NcclReducer(int rank, int size, int device,
                         const std::function<void(void*, size_t)>& broadcast_from_root)
    : state_(std::make_unique<State>()), device_(device) {
  state_->rank = rank;
  ncclUniqueId id{};
  if (rank == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId", rank);
  broadcast_from_root(&id, sizeof(id));
  check_cuda(cudaSetDevice(device), "cudaSetDevice", rank);
  check_nccl(ncclCommInitRank(&state_->comm, size, id, rank), "ncclCommInitRank", rank);
}

NcclReducer::~NcclReducer() {
  if (state_->comm) ncclCommDestroy(state_->comm);
}

void NcclReducer::all_reduce_mean(const std::vector<std::pair<float*, size_t>>& arrays) {
  check_cuda(cudaSetDevice(device_), "cudaSetDevice", state_->rank);
  auto stream = static_cast<cudaStream_t>(nn::cuda::device_stream(device_));
  check_nccl(ncclGroupStart(), "ncclGroupStart", state_->rank);
  for (const auto& [data, n] : arrays) {
    if (n == 0) continue;
    check_nccl(ncclAllReduce(data, data, n, ncclFloat32, ncclAvg, state_->comm, stream), "ncclAllReduce",
               state_->rank);
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd", state_->rank);
  // Waiting here keeps a stalled peer inside the caller's watchdog window.
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize after ncclAllReduce", state_->rank);
}

}  // namespace nncli
#endif
