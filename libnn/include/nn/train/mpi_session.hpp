// Data-parallel training across processes (`nncli -m`): the MPI session (OpenMPI's mpirun) and its Communicator,
// with a watchdog that ends the job when a collective stalls. Built with MPI when CMake finds it (NN_WITH_MPI).
#pragma once
#include <memory>
#include <string>

#include "nn/train/communicator.hpp"

namespace nn::train {

// True when this nncli was built with MPI.
bool mpi_built();

class MpiSession {
 public:
  MpiSession() = default;
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // Joins the MPI job when the process was started by mpirun (OMPI_COMM_WORLD_SIZE set;
  // docs/command_line.md#train-mpi) and installs the process communicator; a job of one process, or no mpirun,
  // stays single-process. Throws nn::Error (kUnsupported) for a multi-process job when the build has no MPI.
  void start();
  int rank() const { return communicator_ ? communicator_->rank() : 0; }
  int size() const { return communicator_ ? communicator_->size() : 1; }

  // nncli's exit status: after a failure in a job of several processes every process is ended
  // (MPI_Abort), since the others would wait for it forever; otherwise MPI is finalized.
  int finish(int status);

 private:
  std::shared_ptr<Communicator> communicator_;
};

}  // namespace nn::train
