// cuDNN convolution descriptors and the process-wide algorithm cache: per shape, the fastest algorithm
// measured by cuDNN's Find (nnabla's default), or its heuristic's pick with NN_CUDNN_ALGORITHM_BY_HEURISTIC=1.
#include "cuda/ops/cudnn_conv.hpp"

#include <climits>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace nn::cuda {
namespace {

constexpr size_t kWorkspaceLimit = size_t(1) << 30;  // 1 GiB per pass

// Algorithms already chosen, by pass + problem + dtype + device.
std::mutex& algo_cache_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<std::string, CudnnConv::Algo>& algo_cache() {
  static auto* cache = new std::unordered_map<std::string, CudnnConv::Algo>();  // never destroyed
  return *cache;
}

int to_int(int64_t v, const std::string& op, const char* what) {
  NN_CHECK_CODE(v >= 0 && v <= INT_MAX, ErrorCode::kUnsupported)
      << op << ": " << what << " " << v << " is too large for cuDNN";
  return int(v);
}

void append(std::ostringstream& os, const char* name, const Shape& s) {
  os << name;
  for (int64_t d : s) os << d << ',';
  os << '|';
}

// nnabla's NNABLA_CUDNN_ALGORITHM_BY_HEURISTIC under nncli's prefix: skip the timed search.
bool by_heuristic() {
  static const bool heuristic = [] {
    const char* s = std::getenv("NN_CUDNN_ALGORITHM_BY_HEURISTIC");
    return s != nullptr && *s != '\0' && std::string(s) != "0";
  }();
  return heuristic;
}

// Picks the first result (Find's are sorted by measured time, the heuristic's by expected speed) that
// succeeds, suits the math mode and fits the workspace limit.
// workspace_of(algo, bytes) asks cuDNN for the exact workspace (false when the algorithm is not supported).
template <class Perf, class WorkspaceOf>
bool pick(const std::vector<Perf>& perf, int count, bool half, cudnnConvolutionDescriptor_t conv,
          WorkspaceOf&& workspace_of, CudnnConv::Algo& chosen) {
  for (int i = 0; i < count; ++i) {
    const Perf& p = perf[size_t(i)];
    if (p.status != CUDNN_STATUS_SUCCESS) continue;
    const bool tensor_op =
        p.mathType == CUDNN_TENSOR_OP_MATH || p.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    if (!half && tensor_op) continue;  // float results must not go through TF32
    const cudnnMathType_t math = half ? p.mathType : CUDNN_FMA_MATH;
    if (cudnnSetConvolutionMathType(conv, math) != CUDNN_STATUS_SUCCESS) continue;
    size_t bytes = 0;
    if (!workspace_of(int(p.algo), bytes) || bytes > kWorkspaceLimit) continue;
    chosen.algo = int(p.algo);
    chosen.math = math;
    chosen.workspace = bytes;
    return true;
  }
  return false;
}

}  // namespace

CudnnConv::CudnnConv() = default;

CudnnConv::~CudnnConv() {
  if (conv_desc_) cudnnDestroyConvolutionDescriptor(conv_desc_);
  if (w_desc_) cudnnDestroyFilterDescriptor(w_desc_);
  if (y_desc_) cudnnDestroyTensorDescriptor(y_desc_);
  if (x_desc_) cudnnDestroyTensorDescriptor(x_desc_);
}

void CudnnConv::create_descriptors() {
  if (!x_desc_) NN_CUDNN_CHECK(cudnnCreateTensorDescriptor(&x_desc_));
  if (!y_desc_) NN_CUDNN_CHECK(cudnnCreateTensorDescriptor(&y_desc_));
  if (!w_desc_) NN_CUDNN_CHECK(cudnnCreateFilterDescriptor(&w_desc_));
  if (!conv_desc_) NN_CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&conv_desc_));
}

void CudnnConv::setup(const std::string& op, const ConvProblem& p, cudnnDataType_t dtype, int device) {
  op_ = op;
  p_ = p;
  dtype_ = dtype;
  device_ = device;
  element_bytes_ = dtype == CUDNN_DATA_HALF ? 2 : 4;
  for (auto& a : algos_) a = Algo{};
  const size_t spatial = p.kernel.size();
  NN_CHECK_CODE(spatial >= 1 && spatial <= 3, ErrorCode::kUnsupported)
      << op << ": the cuDNN kernel handles 1 to 3 spatial axes, not " << spatial;
  NN_INTERNAL_CHECK(p.in.size() == spatial && p.out.size() == spatial && p.pad.size() == spatial &&
                    p.stride.size() == spatial && p.dilation.size() == spatial)
      << op;
  NN_INTERNAL_CHECK(p.group >= 1 && p.in_channels % p.group == 0 && p.out_channels % p.group == 0) << op;
  x_elements_ = p.batch * p.in_channels * shape_size(p.in);
  y_elements_ = p.batch * p.out_channels * shape_size(p.out);
  w_elements_ = p.out_channels * (p.in_channels / p.group) * shape_size(p.kernel);
  empty_ = x_elements_ == 0 || y_elements_ == 0 || w_elements_ == 0;
  if (empty_) return;
  create_descriptors();

  // 1-D convolutions run as 2-D ones over a leading spatial axis of size 1.
  const size_t lead = spatial == 1 ? 1 : 0;
  const size_t nd = spatial + lead;
  std::vector<int> x_dims{to_int(p.batch, op, "batch"), to_int(p.in_channels, op, "channels")};
  std::vector<int> y_dims{x_dims[0], to_int(p.out_channels, op, "channels")};
  std::vector<int> w_dims{y_dims[1], to_int(p.in_channels / p.group, op, "channels")};
  std::vector<int> pad(nd, 0), stride(nd, 1), dilation(nd, 1);
  if (lead) {
    x_dims.push_back(1);
    y_dims.push_back(1);
    w_dims.push_back(1);
  }
  for (size_t d = 0; d < spatial; ++d) {
    x_dims.push_back(to_int(p.in[d], op, "spatial size"));
    y_dims.push_back(to_int(p.out[d], op, "spatial size"));
    w_dims.push_back(to_int(p.kernel[d], op, "kernel size"));
    pad[d + lead] = to_int(p.pad[d], op, "pad");
    stride[d + lead] = to_int(p.stride[d], op, "stride");
    dilation[d + lead] = to_int(p.dilation[d], op, "dilation");
  }
  NN_CUDNN_CHECK(
      cudnnSetTensorNdDescriptorEx(x_desc_, CUDNN_TENSOR_NCHW, dtype, int(x_dims.size()), x_dims.data()));
  NN_CUDNN_CHECK(
      cudnnSetTensorNdDescriptorEx(y_desc_, CUDNN_TENSOR_NCHW, dtype, int(y_dims.size()), y_dims.data()));
  NN_CUDNN_CHECK(cudnnSetFilterNdDescriptor(w_desc_, dtype, CUDNN_TENSOR_NCHW, int(w_dims.size()), w_dims.data()));
  NN_CUDNN_CHECK(cudnnSetConvolutionNdDescriptor(conv_desc_, int(nd), pad.data(), stride.data(), dilation.data(),
                                                 CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  NN_CUDNN_CHECK(cudnnSetConvolutionGroupCount(conv_desc_, to_int(p.group, op, "group")));
  NN_CUDNN_CHECK(
      cudnnSetConvolutionMathType(conv_desc_, dtype == CUDNN_DATA_HALF ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH));
  // cuDNN derives Y's shape from X's; a transposed convolution whose output_padding reaches a stride does
  // not round-trip and is refused here rather than failing inside cuDNN.
  std::vector<int> expected(y_dims.size());
  NN_CUDNN_CHECK(
      cudnnGetConvolutionNdForwardOutputDim(conv_desc_, x_desc_, w_desc_, int(expected.size()), expected.data()));
  NN_CHECK_CODE(expected == y_dims, ErrorCode::kUnsupported)
      << op << ": the cuDNN kernel cannot map this geometry (input " << to_string(p.in) << ", kernel "
      << to_string(p.kernel) << ", output " << to_string(p.out) << ", stride " << to_string(p.stride)
      << "); a transposed convolution's output_padding must be smaller than its stride";

  std::ostringstream key;
  key << "dev" << device << "|t" << int(dtype) << "|n" << p.batch << "|c" << p.in_channels << "|k"
      << p.out_channels << "|g" << p.group << '|';
  append(key, "i", p.in);
  append(key, "w", p.kernel);
  append(key, "o", p.out);
  append(key, "p", p.pad);
  append(key, "s", p.stride);
  append(key, "d", p.dilation);
  key_ = key.str();
}

const CudnnConv::Algo& CudnnConv::algo(Pass pass) {
  Algo& a = algos_[pass];
  if (a.algo >= 0) return a;
  const std::string key = std::to_string(int(pass)) + key_;
  std::lock_guard<std::mutex> lock(algo_cache_mutex());
  auto it = algo_cache().find(key);
  if (it == algo_cache().end()) it = algo_cache().emplace(key, choose(pass)).first;
  a = it->second;
  return a;
}

CudnnConv::Algo CudnnConv::choose(Pass pass) {
  if (!by_heuristic()) {
    Algo timed;
    try {
      if (choose_from(pass, true, timed)) return timed;
    } catch (const Error&) {
      // No memory for the timed search's scratch buffers: the heuristic needs none.
    }
  }
  Algo chosen;
  static const char* const kPassNames[] = {"forward", "backward data", "backward filter"};
  NN_CHECK_CODE(choose_from(pass, false, chosen), ErrorCode::kUnsupported)
      << op_ << ": cuDNN offers no " << kPassNames[pass] << " algorithm for this convolution within "
      << (kWorkspaceLimit >> 20) << " MiB of workspace (" << key_ << ")";
  return chosen;
}

CudnnConv::FindScratch CudnnConv::find_scratch() const {
  FindScratch f;
  // cuDNN's Find runs every candidate on real buffers and writes the pass's output: scratch tensors keep
  // the Function's own outputs (and accumulated grads) untouched.
  for (auto [buffer, elements] : {std::pair{&f.x, x_elements_}, {&f.w, w_elements_}, {&f.y, y_elements_}}) {
    *buffer = device_buffer(size_t(elements) * element_bytes_);
    NN_CUDA_CHECK(cudaMemsetAsync((*buffer)->ptr, 0, (*buffer)->bytes, stream(device_)));
  }
  size_t free_bytes = 0, total = 0;
  NN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  f.workspace_bytes = std::min(kWorkspaceLimit, free_bytes / 2);
  if (f.workspace_bytes > 0) f.workspace = device_buffer(f.workspace_bytes);
  return f;
}

bool CudnnConv::choose_from(Pass pass, bool timed, Algo& chosen) {
  cudnnHandle_t h = cudnn(device_);
  const bool half = dtype_ == CUDNN_DATA_HALF;
  NN_CUDNN_CHECK(cudnnSetConvolutionMathType(conv_desc_, half ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH));
  FindScratch f;
  if (timed) f = find_scratch();
  void* ws = f.workspace ? f.workspace->ptr : nullptr;
  int count = 0;
  if (pass == kForward) {
    std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    if (timed)
      NN_CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(h, x_desc_, f.x->ptr, w_desc_, f.w->ptr, conv_desc_,
                                                            y_desc_, f.y->ptr, int(perf.size()), &count,
                                                            perf.data(), ws, f.workspace_bytes));
    else
      NN_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(h, x_desc_, w_desc_, conv_desc_, y_desc_,
                                                            int(perf.size()), &count, perf.data()));
    return pick(
        perf, count, half, conv_desc_,
        [&](int algo, size_t& bytes) {
          return cudnnGetConvolutionForwardWorkspaceSize(h, x_desc_, w_desc_, conv_desc_, y_desc_,
                                                         cudnnConvolutionFwdAlgo_t(algo),
                                                         &bytes) == CUDNN_STATUS_SUCCESS;
        },
        chosen);
  }
  if (pass == kBackwardData) {
    std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perf(CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT);
    if (timed)
      NN_CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(h, w_desc_, f.w->ptr, y_desc_, f.y->ptr,
                                                                 conv_desc_, x_desc_, f.x->ptr, int(perf.size()),
                                                                 &count, perf.data(), ws, f.workspace_bytes));
    else
      NN_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(h, w_desc_, y_desc_, conv_desc_, x_desc_,
                                                                 int(perf.size()), &count, perf.data()));
    return pick(
        perf, count, half, conv_desc_,
        [&](int algo, size_t& bytes) {
          return cudnnGetConvolutionBackwardDataWorkspaceSize(h, w_desc_, y_desc_, conv_desc_, x_desc_,
                                                              cudnnConvolutionBwdDataAlgo_t(algo),
                                                              &bytes) == CUDNN_STATUS_SUCCESS;
        },
        chosen);
  }
  std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> perf(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT);
  if (timed)
    NN_CUDNN_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(h, x_desc_, f.x->ptr, y_desc_, f.y->ptr,
                                                                 conv_desc_, w_desc_, f.w->ptr, int(perf.size()),
                                                                 &count, perf.data(), ws, f.workspace_bytes));
  else
    NN_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, x_desc_, y_desc_, conv_desc_, w_desc_,
                                                                 int(perf.size()), &count, perf.data()));
  return pick(
      perf, count, half, conv_desc_,
      [&](int algo, size_t& bytes) {
        return cudnnGetConvolutionBackwardFilterWorkspaceSize(h, x_desc_, y_desc_, conv_desc_, w_desc_,
                                                              cudnnConvolutionBwdFilterAlgo_t(algo),
                                                              &bytes) == CUDNN_STATUS_SUCCESS;
      },
      chosen);
}

bool CudnnConv::handle_empty(void* out, int64_t elements, float beta) const {
  if (!empty_) return false;
  if (beta == 0.f && elements > 0)
    NN_CUDA_CHECK(cudaMemsetAsync(out, 0, size_t(elements) * element_bytes_, stream(device_)));
  return true;
}

void* CudnnConv::workspace(const Algo& a, std::shared_ptr<Buffer>& holder) const {
  if (a.workspace == 0) return nullptr;
  holder = device_buffer(a.workspace);  // back to the cache after the call: later work is stream-ordered
  return holder->ptr;
}

void CudnnConv::forward(const void* x, const void* w, void* y, float beta) {
  if (handle_empty(y, y_elements_, beta)) return;
  const Algo& a = algo(kForward);
  std::shared_ptr<Buffer> holder;
  void* ws = workspace(a, holder);
  const float alpha = 1.f;
  NN_CUDNN_CHECK(cudnnSetConvolutionMathType(conv_desc_, a.math));
  NN_CUDNN_CHECK(cudnnConvolutionForward(cudnn(device_), &alpha, x_desc_, x, w_desc_, w, conv_desc_,
                                         cudnnConvolutionFwdAlgo_t(a.algo), ws, a.workspace, &beta, y_desc_, y));
}

void CudnnConv::backward_data(const void* w, const void* dy, void* dx, float beta) {
  if (handle_empty(dx, x_elements_, beta)) return;
  const Algo& a = algo(kBackwardData);
  std::shared_ptr<Buffer> holder;
  void* ws = workspace(a, holder);
  const float alpha = 1.f;
  NN_CUDNN_CHECK(cudnnSetConvolutionMathType(conv_desc_, a.math));
  NN_CUDNN_CHECK(cudnnConvolutionBackwardData(cudnn(device_), &alpha, w_desc_, w, y_desc_, dy, conv_desc_,
                                              cudnnConvolutionBwdDataAlgo_t(a.algo), ws, a.workspace, &beta,
                                              x_desc_, dx));
}

void CudnnConv::backward_filter(const void* x, const void* dy, void* dw, float beta) {
  if (handle_empty(dw, w_elements_, beta)) return;
  const Algo& a = algo(kBackwardFilter);
  std::shared_ptr<Buffer> holder;
  void* ws = workspace(a, holder);
  const float alpha = 1.f;
  NN_CUDNN_CHECK(cudnnSetConvolutionMathType(conv_desc_, a.math));
  NN_CUDNN_CHECK(cudnnConvolutionBackwardFilter(cudnn(device_), &alpha, x_desc_, x, y_desc_, dy, conv_desc_,
                                                cudnnConvolutionBwdFilterAlgo_t(a.algo), ws, a.workspace, &beta,
                                                w_desc_, dw));
}

}  // namespace nn::cuda
