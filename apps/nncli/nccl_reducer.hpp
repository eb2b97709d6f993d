// Gradient averaging on CUDA devices with NCCL for `nncli -m train -C cudnn` (built when CMake finds NCCL
// besides MPI and the CUDA backend: NNCLI_WITH_NCCL). MPI carries NCCL's unique id to every process.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace nncli {

class NcclReducer {
 public:
  // broadcast_from_root(bytes, size): MPI_Bcast of the id from rank 0. Creates the NCCL communicator on
  // `device` (collective: every process constructs its reducer at the same point).
  NcclReducer(int rank, int size, int device, const std::function<void(void*, size_t)>& broadcast_from_root);
  ~NcclReducer();
  NcclReducer(const NcclReducer&) = delete;
  NcclReducer& operator=(const NcclReducer&) = delete;

  int device() const { return device_; }
  // Averages the arrays in place over every process (one NCCL group), on the engine's stream of the
  // device, and waits for the result.
  void all_reduce_mean(const std::vector<std::pair<float*, size_t>>& arrays);

 private:
  struct State;
  std::unique_ptr<State> state_;
  int device_;
};

}  // namespace nncli
