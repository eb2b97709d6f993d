// CUDA device plumbing: caching allocator, NdArray device hooks, per-device stream and library handles,
// and the error checks that turn CUDA, cuBLAS and cuDNN failures into nn::Error.
#include <unistd.h>

#include <map>
#include <mutex>

#include "cuda/common.hpp"
#include "cuda/cublas_loader.hpp"
#include "cuda/kernels/kernels.hpp"
#include "cuda/kernels/launch.cuh"
#include "nn/core/context.hpp"
#include "nn/core/log.hpp"
#include "nn/cuda/cuda.hpp"

namespace nn::cuda {
namespace {

thread_local const std::string* t_current_op = nullptr;

std::string with_op(const char* call) {
  std::string s = std::string(call);
  if (t_current_op && !t_current_op->empty()) s += " (function " + *t_current_op + ")";
  return s;
}

// Freed blocks are kept per (device, rounded size) and handed out again; cudaFree only when a cudaMalloc
// fails (then every cached block is released and the allocation retried).
class CachingAllocator {
 public:
  static CachingAllocator& instance() {
    static auto* a = new CachingAllocator();  // never destroyed: buffers may be released at exit
    return *a;
  }
  static size_t round_size(size_t bytes) {
    const size_t small = 512, large = size_t(1) << 20;
    bytes = std::max<size_t>(bytes, 1);
    return bytes < large ? (bytes + small - 1) / small * small : (bytes + large - 1) / large * large;
  }
  std::shared_ptr<Buffer> allocate(size_t bytes) {
    int device = 0;
    NN_CUDA_CHECK(cudaGetDevice(&device));
    const size_t rounded = round_size(bytes);
    void* ptr = take_cached(device, rounded);
    if (!ptr) {
      cudaError_t e = cudaMalloc(&ptr, rounded);
      if (e != cudaSuccess) {
        (void)cudaGetLastError();
        release_cached(device);
        NN_CUDA_CHECK(cudaMalloc(&ptr, rounded));
      }
    }
    auto b = std::make_shared<Buffer>();
    b->ptr = ptr;
    b->bytes = bytes;
    b->release = [this, device, rounded](void* p) { give_back(device, rounded, p); };
    return b;
  }

 private:
  void* take_cached(int device, size_t rounded) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& list = free_[{device, rounded}];
    if (list.empty()) return nullptr;
    void* p = list.back();
    list.pop_back();
    return p;
  }
  void give_back(int device, size_t rounded, void* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_[{device, rounded}].push_back(p);
  }
  void release_cached(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [key, list] : free_) {
      if (key.first != device) continue;
      for (void* p : list) cudaFree(p);
      list.clear();
    }
  }
  std::mutex mutex_;
  std::map<std::pair<int, size_t>, std::vector<void*>> free_;
};

struct DeviceResources {
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
  cudnnHandle_t cudnn = nullptr;
};

DeviceResources& resources(int device) {
  static std::mutex mutex;
  static auto* table = new std::map<int, DeviceResources>();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = table->find(device);
  if (it != table->end()) return it->second;
  DeviceResources r;
  int previous = 0;
  NN_CUDA_CHECK(cudaGetDevice(&previous));
  NN_CUDA_CHECK(cudaSetDevice(device));
  NN_CUDA_CHECK(cudaStreamCreate(&r.stream));  // a blocking stream: ordered with plain cudaMemcpy
  NN_CUBLAS_CHECK(cublas_api().create(&r.cublas));
  NN_CUBLAS_CHECK(cublas_api().set_stream(r.cublas, r.stream));
  NN_CUDNN_CHECK(cudnnCreate(&r.cudnn));
  NN_CUDNN_CHECK(cudnnSetStream(r.cudnn, r.stream));
  NN_CUDA_CHECK(cudaSetDevice(previous));
  return (*table)[device] = r;
}

// The kernels' element-type code of a dtype (kOther when the device cannot convert it).
k::ElementType dtype_code(DType t) {
  switch (t) {
    case DType::kFloat32: return k::ElementType::kFloat;
    case DType::kFloat16: return k::ElementType::kHalf;
    case DType::kInt32: return k::ElementType::kInt32;
    default: return k::ElementType::kOther;
  }
}

int current_device() {
  int device = 0;
  NN_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

}  // namespace

void check_cuda(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();  // clear a non-sticky error
  NN_CHECK(false) << "CUDA error in " << with_op(call) << ": " << cudaGetErrorString(status);
}
void check_cublas(cublasStatus_t status, const char* call) {
  NN_CHECK(status == CUBLAS_STATUS_SUCCESS)
      << "cuBLAS error in " << with_op(call) << ": " << cublas_api().status_string(status);
}
void check_cudnn(cudnnStatus_t status, const char* call) {
  NN_CHECK(status == CUDNN_STATUS_SUCCESS)
      << "cuDNN error in " << with_op(call) << ": " << cudnnGetErrorString(status);
}
void launch_check(const char* kernel) { check_cuda(cudaGetLastError(), kernel); }

OpScope::OpScope(const std::string& op) : previous_(t_current_op) { t_current_op = &op; }
OpScope::~OpScope() { t_current_op = previous_; }
const std::string& current_op() {
  static const std::string empty;
  return t_current_op ? *t_current_op : empty;
}

void set_device(int device) { NN_CUDA_CHECK(cudaSetDevice(device)); }
cudaStream_t stream(int device) { return resources(device).stream; }
cublasHandle_t cublas(int device) { return resources(device).cublas; }
cudnnHandle_t cudnn(int device) { return resources(device).cudnn; }
void* device_stream(int device) { return resources(device).stream; }
void synchronize(int device) {
  set_device(device);
  NN_CUDA_CHECK(cudaStreamSynchronize(stream(device)));
}
std::shared_ptr<Buffer> device_buffer(size_t bytes) { return CachingAllocator::instance().allocate(bytes); }

namespace {
// The NVIDIA driver's device nodes (/dev/dxg under WSL2): without them the CUDA runtime cannot find a GPU,
// and asking it costs milliseconds of driver probing at every start of a CPU-only run.
bool driver_nodes_present() { return access("/dev/nvidiactl", F_OK) == 0 || access("/dev/dxg", F_OK) == 0; }
}  // namespace

int device_count() {
  int n = 0;
  if (!driver_nodes_present()) return 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

std::string device_problem() {
  int n = 0;
  if (!driver_nodes_present()) return "no NVIDIA driver (/dev/nvidiactl is absent)";
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
  }
  return n == 0 ? "no CUDA device is present" : "";
}

void init_device() {
  static std::once_flag once;
  std::call_once(once, [] {
    DeviceHooks hooks;
    hooks.allocate = [](size_t bytes) { return CachingAllocator::instance().allocate(bytes); };
    // Copies go through the device's stream and wait for it: host buffers may be freed right after.
    hooks.to_host = [](void* dst, const void* src, size_t bytes) {
      cudaStream_t s = stream(current_device());
      NN_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s));
      NN_CUDA_CHECK(cudaStreamSynchronize(s));
    };
    hooks.from_host = [](void* dst, const void* src, size_t bytes) {
      cudaStream_t s = stream(current_device());
      NN_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));
      NN_CUDA_CHECK(cudaStreamSynchronize(s));
    };
    hooks.zero = [](void* dst, size_t bytes) {
      NN_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, stream(current_device())));
    };
    hooks.convert = [](void* dst, DType dst_type, const void* src, DType src_type, int64_t n) {
      return k::convert_on_device(stream(current_device()), dst, dtype_code(dst_type), src, dtype_code(src_type),
                                  n);
    };
    register_device("cuda", std::move(hooks));
  });
}

}  // namespace nn::cuda

namespace nn::cuda::k {
void launch_failed(const char* kernel, cudaError_t e) { check_cuda(e, kernel); }
}  // namespace nn::cuda::k
