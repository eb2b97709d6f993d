// Communicator: the collectives data-parallel training needs (docs/command_line.md#train-mpi), implemented
// outside libnn (the app's MPI one) or by the single-process one here; one process-wide instance, whose
// sum SyncBatchNormalization uses (registered with nn::ops::set_process_all_reduce_sum).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nn::train {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual int local_rank() const = 0;  // rank among the processes of this machine (device id)
  // In-place sums over every process; all processes call them in the same order.
  virtual void all_reduce_sum(float* data, size_t n) = 0;
  virtual void all_reduce_sum(double* data, size_t n) = 0;
  double all_reduce_sum(double value) {
    all_reduce_sum(&value, 1);
    return value;
  }
  // Averages float arrays that live on CUDA device `device` in place over every process (NCCL). False when
  // this communicator cannot (no NCCL in the build): the caller then reduces host copies.
  virtual bool all_reduce_mean_device(const std::vector<std::pair<float*, size_t>>& arrays, int device) {
    return false;
  }
  // bytes from root's buffer into everyone's (same size on every process).
  virtual void broadcast(void* data, size_t bytes, int root) = 0;
  virtual void barrier() = 0;
  // Ends every process of the job with exit status `code` (after the caller printed why).
  [[noreturn]] virtual void abort(int code) = 0;

  bool is_root() const { return rank() == 0; }
  bool distributed() const { return size() > 1; }
  // root's string (size, then contents) to every process.
  void broadcast_string(std::string& text, int root);
};

// One process, world size 1: sums and broadcasts leave the data as it is.
class SingleProcessCommunicator : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  using Communicator::all_reduce_sum;
  void all_reduce_sum(float*, size_t) override {}
  void all_reduce_sum(double*, size_t) override {}
  void broadcast(void*, size_t, int) override {}
  void barrier() override {}
  [[noreturn]] void abort(int code) override;
};

// The process-wide communicator (a SingleProcessCommunicator until one is set). Setting it registers its
// sum for SyncBatchNormalization when it is distributed; nullptr restores the single-process one.
Communicator& process_communicator();
void set_process_communicator(std::shared_ptr<Communicator> communicator);

}  // namespace nn::train
