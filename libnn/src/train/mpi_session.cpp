// The MPI session and Communicator of data-parallel training (`nncli -m`, OpenMPI), or a stub without MPI.
#include "nn/train/mpi_session.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "nn/core/context.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

#ifdef NN_WITH_MPI
#include <dlfcn.h>

#include "nn/core/lazy_library.hpp"
#include <mpi.h>
#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <type_traits>
#endif

#ifdef NN_WITH_MPI
// libmpi (with OpenMPI's runtime libraries) is opened with dlopen when `-m` starts MPI, not mapped into every
// nncli process at start-up. The MPI names this file uses are redefined below to the resolved entries, so
// the code reads as plain MPI.
namespace nn::train {
namespace {
struct MpiApi {
  decltype(&MPI_Init_thread) init_thread;
  decltype(&MPI_Finalize) finalize;
  decltype(&MPI_Abort) abort;
  decltype(&MPI_Comm_set_errhandler) comm_set_errhandler;
  decltype(&MPI_Comm_rank) comm_rank;
  decltype(&MPI_Comm_size) comm_size;
  decltype(&MPI_Comm_split_type) comm_split_type;
  decltype(&MPI_Comm_free) comm_free;
  decltype(&MPI_Barrier) barrier;
  decltype(&MPI_Bcast) bcast;
  decltype(&MPI_Allreduce) allreduce;
  decltype(&MPI_Type_size) type_size;
  decltype(&MPI_Error_string) error_string;
  MPI_Comm comm_world;
  MPI_Datatype byte, float32, float64;
  MPI_Op sum;
  MPI_Info info_null;
  MPI_Errhandler errors_return;
};

template <class T>
void resolve(void* lib, const char* name, T& out) {
  void* p = dlsym(lib, name);
  NN_CHECK(p) << "MPI library (" << NN_MPI_LIBRARY << ") has no " << name;
  if constexpr (std::is_pointer_v<T> && std::is_function_v<std::remove_pointer_t<T>>)
    out = reinterpret_cast<T>(p);
  else
    out = static_cast<T>(p);  // a predefined handle is the address of the library's global object
}

MpiApi open_mpi() {
  // RTLD_GLOBAL: OpenMPI's components, opened by libmpi itself, resolve their symbols against it.
  void* lib = nn::open_lazy_library({NN_MPI_LIBRARY, "libmpi.so.40"}, "the MPI library", RTLD_GLOBAL);
  MpiApi a{};
  resolve(lib, "MPI_Init_thread", a.init_thread);
  resolve(lib, "MPI_Finalize", a.finalize);
  resolve(lib, "MPI_Abort", a.abort);
  resolve(lib, "MPI_Comm_set_errhandler", a.comm_set_errhandler);
  resolve(lib, "MPI_Comm_rank", a.comm_rank);
  resolve(lib, "MPI_Comm_size", a.comm_size);
  resolve(lib, "MPI_Comm_split_type", a.comm_split_type);
  resolve(lib, "MPI_Comm_free", a.comm_free);
  resolve(lib, "MPI_Barrier", a.barrier);
  resolve(lib, "MPI_Bcast", a.bcast);
  resolve(lib, "MPI_Allreduce", a.allreduce);
  resolve(lib, "MPI_Type_size", a.type_size);
  resolve(lib, "MPI_Error_string", a.error_string);
  resolve(lib, "ompi_mpi_comm_world", a.comm_world);
  resolve(lib, "ompi_mpi_byte", a.byte);
  resolve(lib, "ompi_mpi_float", a.float32);
  resolve(lib, "ompi_mpi_double", a.float64);
  resolve(lib, "ompi_mpi_op_sum", a.sum);
  resolve(lib, "ompi_mpi_info_null", a.info_null);
  resolve(lib, "ompi_mpi_errors_return", a.errors_return);
  return a;
}

const MpiApi& mpi_api() {
  static const MpiApi a = open_mpi();
  return a;
}
}  // namespace
}  // namespace nn::train

#undef MPI_COMM_WORLD
#undef MPI_BYTE
#undef MPI_FLOAT
#undef MPI_DOUBLE
#undef MPI_SUM
#undef MPI_INFO_NULL
#undef MPI_ERRORS_RETURN
#define MPI_Init_thread nn::train::mpi_api().init_thread
#define MPI_Finalize nn::train::mpi_api().finalize
#define MPI_Abort nn::train::mpi_api().abort
#define MPI_Comm_set_errhandler nn::train::mpi_api().comm_set_errhandler
#define MPI_Comm_rank nn::train::mpi_api().comm_rank
#define MPI_Comm_size nn::train::mpi_api().comm_size
#define MPI_Comm_split_type nn::train::mpi_api().comm_split_type
#define MPI_Comm_free nn::train::mpi_api().comm_free
#define MPI_Barrier nn::train::mpi_api().barrier
#define MPI_Bcast nn::train::mpi_api().bcast
#define MPI_Allreduce nn::train::mpi_api().allreduce
#define MPI_Type_size nn::train::mpi_api().type_size
#define MPI_Error_string nn::train::mpi_api().error_string
#define MPI_COMM_WORLD (nn::train::mpi_api().comm_world)
#define MPI_BYTE (nn::train::mpi_api().byte)
#define MPI_FLOAT (nn::train::mpi_api().float32)
#define MPI_DOUBLE (nn::train::mpi_api().float64)
#define MPI_SUM (nn::train::mpi_api().sum)
#define MPI_INFO_NULL (nn::train::mpi_api().info_null)
#define MPI_ERRORS_RETURN (nn::train::mpi_api().errors_return)
#endif

namespace nn::train {

namespace {

bool launched_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

}  // namespace

#ifdef NN_WITH_MPI

namespace {

// Seconds a collective may wait for the other processes before the job is ended (NNCLI_MPI_TIMEOUT,
// 0 = forever). Upstream's watchdog allows about 100 s; saving a large model on rank 0 may take longer.
double collective_timeout() {
  const char* s = std::getenv("NNCLI_MPI_TIMEOUT");
  return s ? std::atof(s) : 300.0;
}

class MpiCommunicator : public nn::train::Communicator {
 public:
  MpiCommunicator() : timeout_s_(collective_timeout()) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    abort_from_watchdog_ = provided >= MPI_THREAD_MULTIPLE;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // errors become nn::Error, not exit()
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local),
          "MPI_Comm_split_type");
    MPI_Comm_rank(local, &local_rank_);
    MPI_Comm_size(local, &local_size_);
    MPI_Comm_free(&local);
    share_cores();
    if (timeout_s_ > 0) watchdog_ = std::thread([this] { watch(); });
  }
  ~MpiCommunicator() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (watchdog_.joinable()) watchdog_.join();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }

  using Communicator::all_reduce_sum;
  void all_reduce_sum(float* data, size_t n) override { reduce(data, n, MPI_FLOAT); }
  void all_reduce_sum(double* data, size_t n) override { reduce(data, n, MPI_DOUBLE); }

  // Device arrays are averaged by the GPU backend's reducer (NCCL) when it has one; else false.
  bool all_reduce_mean_device(const std::vector<std::pair<float*, size_t>>& arrays, int device) override {
    if (!device_reducer_ || device_reducer_->device() != device) {
      device_reducer_.reset();
      Watch w(*this, "NCCL setup", timeout_s_);
      device_reducer_ = nn::make_device_reducer(rank_, size_, device, [this](void* data, size_t bytes) {
        check(MPI_Bcast(data, int(bytes), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
      });
      if (!device_reducer_) return false;
    }
    Watch w(*this, "NCCL all-reduce", timeout_s_);
    device_reducer_->all_reduce_mean(arrays);
    return true;
  }

  void broadcast(void* data, size_t bytes, int root) override {
    Watch w(*this, "broadcast", timeout_s_);
    auto* p = static_cast<char*>(data);
    for (size_t done = 0; done < bytes;) {
      const int chunk = int(std::min<size_t>(bytes - done, size_t(1) << 30));
      check(MPI_Bcast(p + done, chunk, MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
      done += size_t(chunk);
    }
  }
  // Waits as long as it takes (rank 0 may be creating a dataset cache meanwhile).
  void barrier() override {
    Watch w(*this, "barrier", 0.0);
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  }
  [[noreturn]] void abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
  }
  void finalize() { MPI_Finalize(); }

 private:
  // Marks a collective in progress for the watchdog (limit 0: unwatched).
  struct Watch {
    Watch(MpiCommunicator& c, const char* what, double limit) : c_(c) {
      std::lock_guard<std::mutex> lock(c_.mutex_);
      c_.what_ = what;
      c_.deadline_ = limit > 0 ? std::chrono::steady_clock::now() +
                                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                         std::chrono::duration<double>(limit))
                               : std::chrono::steady_clock::time_point::max();
      c_.busy_ = true;
    }
    ~Watch() {
      std::lock_guard<std::mutex> lock(c_.mutex_);
      c_.busy_ = false;
    }
    MpiCommunicator& c_;
  };

  void reduce(void* data, size_t n, MPI_Datatype type) {
    Watch w(*this, "all-reduce", timeout_s_);
    int element = 0;
    MPI_Type_size(type, &element);
    auto* p = static_cast<char*>(data);
    for (size_t done = 0; done < n;) {
      const int chunk = int(std::min<size_t>(n - done, size_t(INT_MAX)));
      check(MPI_Allreduce(MPI_IN_PLACE, p + done * size_t(element), chunk, type, MPI_SUM, MPI_COMM_WORLD),
            "MPI_Allreduce");
      done += size_t(chunk);
    }
  }

  void check(int status, const char* call) const {
    if (status == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    MPI_Error_string(status, text, &len);
    NN_FAIL(nn::ErrorCode::kInvalid) << call << " failed on rank " << rank_ << ": " << text;
  }

  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, std::chrono::milliseconds(200));
      if (stopping_ || !busy_ || std::chrono::steady_clock::now() < deadline_) continue;
      std::fprintf(stderr,
                   "nncli[rank %d]: error: MPI %s waited %.0f s for the other processes (one of them died "
                   "or stalls; limit NNCLI_MPI_TIMEOUT=%g s): ending the job\n",
                   rank_, what_, timeout_s_, timeout_s_);
      std::fflush(stderr);
      if (abort_from_watchdog_) MPI_Abort(MPI_COMM_WORLD, int(nn::ErrorCode::kInvalid));
      std::_Exit(int(nn::ErrorCode::kInvalid));  // mpirun then ends the others
    }
  }

  // Processes sharing a machine split its cores (when mpirun did not bind them and OMP_NUM_THREADS is unset).
  void share_cores() const {
    if (local_size_ <= 1 || std::getenv("OMP_NUM_THREADS")) return;
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return;
    const int visible = CPU_COUNT(&mask);
    if (visible < int(std::thread::hardware_concurrency())) return;  // bound by mpirun: already split
    omp_set_num_threads(std::max(1, visible / local_size_));
  }

  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  double timeout_s_;
  bool abort_from_watchdog_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false, busy_ = false;
  const char* what_ = "";
  std::chrono::steady_clock::time_point deadline_{};
  std::thread watchdog_;
  std::unique_ptr<nn::DeviceReducer> device_reducer_;  // created at the first all-reduce of device gradients
};

}  // namespace

bool mpi_built() { return true; }

void MpiSession::start() {
  if (!launched_by_mpirun()) return;
  auto mpi = std::make_shared<MpiCommunicator>();
  if (mpi->size() <= 1) {
    mpi->finalize();
    return;
  }
  communicator_ = mpi;
  nn::train::set_process_communicator(communicator_);
  NN_LOG_VERBOSE << "MPI: rank " << mpi->rank() << " of " << mpi->size() << " (local rank " << mpi->local_rank()
                 << ")";
}

int MpiSession::finish(int status) {
  if (!communicator_) return status;
  auto mpi = std::static_pointer_cast<MpiCommunicator>(communicator_);
  nn::train::set_process_communicator(nullptr);
  communicator_.reset();
  // After a failure the other processes may wait in a collective for this one: end them all. 130 (a stop
  // requested by Ctrl-C) is agreed on by every process, which then finish together.
  if (status != 0 && status != 130) mpi->abort(status);
  mpi->finalize();
  return status;
}

#else  // no MPI in this build

bool mpi_built() { return false; }

static int env_world_size() {
  const char* s = std::getenv("OMPI_COMM_WORLD_SIZE");
  return s ? std::atoi(s) : 1;
}

void MpiSession::start() {
  NN_CHECK_CODE(!launched_by_mpirun() || env_world_size() <= 1, nn::ErrorCode::kUnsupported)
      << "-m/--mpi: this nncli was built without MPI (install libopenmpi-dev and rebuild) but runs as one of "
      << env_world_size() << " mpirun processes";
}

int MpiSession::finish(int status) { return status; }

#endif

MpiSession::~MpiSession() = default;

}  // namespace nn::train
