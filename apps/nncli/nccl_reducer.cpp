// NcclReducer: one NCCL communicator per process on its CUDA device; grouped in-place ncclAvg all-reduces.
// libnccl (over 200 MB) is opened with dlopen when a reducer is made, not mapped into every nncli process.
#ifdef NNCLI_WITH_NCCL
#include "nccl_reducer.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

#include "lazy_library.hpp"
#include "nn/core/error.hpp"
#include "nn/cuda/cuda.hpp"

namespace nncli {

namespace {

// The NCCL entry points nncli calls, resolved from the library on first use.
struct Nccl {
  decltype(&ncclGetErrorString) get_error_string;
  decltype(&ncclGetUniqueId) get_unique_id;
  decltype(&ncclCommInitRank) comm_init_rank;
  decltype(&ncclCommDestroy) comm_destroy;
  decltype(&ncclGroupStart) group_start;
  decltype(&ncclGroupEnd) group_end;
  decltype(&ncclAllReduce) all_reduce;
};

Nccl open_nccl() {
  void* lib = open_lazy_library(NNCLI_NCCL_LIBRARY, "libnccl.so.2", "NCCL");
  Nccl n{};
  lazy_symbol(lib, "ncclGetErrorString", n.get_error_string);
  lazy_symbol(lib, "ncclGetUniqueId", n.get_unique_id);
  lazy_symbol(lib, "ncclCommInitRank", n.comm_init_rank);
  lazy_symbol(lib, "ncclCommDestroy", n.comm_destroy);
  lazy_symbol(lib, "ncclGroupStart", n.group_start);
  lazy_symbol(lib, "ncclGroupEnd", n.group_end);
  lazy_symbol(lib, "ncclAllReduce", n.all_reduce);
  return n;
}

const Nccl& nccl() {
  static const Nccl n = open_nccl();
  return n;
}

void check_nccl(ncclResult_t status, const char* call, int rank) {
  NN_CHECK(status == ncclSuccess) << call << " failed on rank " << rank << ": " << nccl().get_error_string(status);
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
  if (rank == 0) check_nccl(nccl().get_unique_id(&id), "ncclGetUniqueId", rank);
  broadcast_from_root(&id, sizeof(id));
  check_cuda(cudaSetDevice(device), "cudaSetDevice", rank);
  check_nccl(nccl().comm_init_rank(&state_->comm, size, id, rank), "ncclCommInitRank", rank);
}

NcclReducer::~NcclReducer() {
  if (state_->comm) nccl().comm_destroy(state_->comm);
}

void NcclReducer::all_reduce_mean(const std::vector<std::pair<float*, size_t>>& arrays) {
  check_cuda(cudaSetDevice(device_), "cudaSetDevice", state_->rank);
  auto stream = static_cast<cudaStream_t>(nn::cuda::device_stream(device_));
  check_nccl(nccl().group_start(), "ncclGroupStart", state_->rank);
  for (const auto& [data, n] : arrays) {
    if (n == 0) continue;
    check_nccl(nccl().all_reduce(data, data, n, ncclFloat32, ncclAvg, state_->comm, stream), "ncclAllReduce",
               state_->rank);
  }
  check_nccl(nccl().group_end(), "ncclGroupEnd", state_->rank);
  // Waiting here keeps a stalled peer inside the caller's watchdog window.
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize after ncclAllReduce", state_->rank);
}

}  // namespace nncli
#endif
