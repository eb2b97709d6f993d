// NcclReducer: one NCCL communicator per process on its CUDA device; grouped in-place ncclAvg all-reduces.
// libnccl (over 200 MB) is opened with dlopen when a reducer is made, not mapped into every nncli process.
#ifdef NN_WITH_NCCL
#include "cuda/nccl_reducer.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include "nn/core/lazy_library.hpp"
#include "nn/cuda/cuda.hpp"

namespace nn::cuda {

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
  const std::string soname = "libnccl.so." + std::to_string(NCCL_MAJOR);
  void* lib = open_lazy_library({soname, std::string(NN_NCCL_LIBRARY_DIR) + "/" + soname}, "NCCL", RTLD_LOCAL,
                                ErrorCode::kUnsupported);
  Nccl n{};
  lazy_symbol(lib, "ncclGetErrorString", n.get_error_string, ErrorCode::kUnsupported);
  lazy_symbol(lib, "ncclGetUniqueId", n.get_unique_id, ErrorCode::kUnsupported);
  lazy_symbol(lib, "ncclCommInitRank", n.comm_init_rank, ErrorCode::kUnsupported);
  lazy_symbol(lib, "ncclCommDestroy", n.comm_destroy, ErrorCode::kUnsupported);
  lazy_symbol(lib, "ncclGroupStart", n.group_start, ErrorCode::kUnsupported);
  lazy_symbol(lib, "ncclGroupEnd", n.group_end, ErrorCode::kUnsupported);
  lazy_symbol(lib, "ncclAllReduce", n.all_reduce, ErrorCode::kUnsupported);
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

class NcclReducer : public DeviceReducer {
 public:
  NcclReducer(int rank, int size, int device, const std::function<void(void*, size_t)>& broadcast_from_root)
      : rank_(rank), device_(device) {
    ncclUniqueId id{};
    if (rank == 0) check_nccl(nccl().get_unique_id(&id), "ncclGetUniqueId", rank);
    broadcast_from_root(&id, sizeof(id));
    check_cuda(cudaSetDevice(device), "cudaSetDevice", rank);
    check_nccl(nccl().comm_init_rank(&comm_, size, id, rank), "ncclCommInitRank", rank);
  }
  ~NcclReducer() override {
    if (comm_) nccl().comm_destroy(comm_);
  }
  NcclReducer(const NcclReducer&) = delete;
  NcclReducer& operator=(const NcclReducer&) = delete;

  int device() const override { return device_; }

  void all_reduce_mean(const std::vector<std::pair<float*, size_t>>& arrays) override {
    check_cuda(cudaSetDevice(device_), "cudaSetDevice", rank_);
    auto stream = static_cast<cudaStream_t>(device_stream(device_));
    check_nccl(nccl().group_start(), "ncclGroupStart", rank_);
    for (const auto& [data, n] : arrays) {
      if (n == 0) continue;
      check_nccl(nccl().all_reduce(data, data, n, ncclFloat32, ncclAvg, comm_, stream), "ncclAllReduce", rank_);
    }
    check_nccl(nccl().group_end(), "ncclGroupEnd", rank_);
    // Waiting here keeps a stalled peer inside the caller's watchdog window.
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize after ncclAllReduce", rank_);
  }

 private:
  ncclComm_t comm_ = nullptr;
  int rank_;
  int device_;
};

}  // namespace

std::unique_ptr<DeviceReducer> make_nccl_reducer(int rank, int size, int device,
                                                 const std::function<void(void*, size_t)>& broadcast_from_root) {
  return std::make_unique<NcclReducer>(rank, size, device, broadcast_from_root);
}

}  // namespace nn::cuda
#endif
