// cuDNN plumbing of the conv-like Functions: the descriptors of one grouped, dilated 1-D/2-D/3-D
// convolution and its three passes, with algorithms chosen once per shape in a process-wide cache (timed
// by cuDNN's Find unless NN_CUDNN_ALGORITHM_BY_HEURISTIC=1).
#pragma once
#include <string>

#include "cuda/common.hpp"

namespace nn::cuda {

// A grouped convolution in cuDNN's terms: input X (batch, in_channels, in...), filter
// (out_channels, in_channels / group, kernel...), output Y (batch, out_channels, out...), all packed.
struct ConvProblem {
  int64_t batch = 0, in_channels = 0, out_channels = 0, group = 1;
  Shape in, kernel, out, pad, stride, dilation;
};

// One convolution's descriptors. dtype CUDNN_DATA_FLOAT (FMA math, no TF32) or CUDNN_DATA_HALF (fp16 storage,
// float compute, tensor cores allowed). Passes run on the cuDNN handle of `device` (select it first); results
// are written as out = result + beta * out (beta 0 or 1; with beta 0 the old content is never read).
class CudnnConv {
 public:
  CudnnConv();
  ~CudnnConv();
  CudnnConv(const CudnnConv&) = delete;
  CudnnConv& operator=(const CudnnConv&) = delete;

  // `op` names errors (unsupported geometry, no algorithm within the workspace limit).
  void setup(const std::string& op, const ConvProblem& p, cudnnDataType_t dtype, int device);
  const ConvProblem& problem() const { return p_; }

  void forward(const void* x, const void* w, void* y, float beta);            // Y = conv(X, W)
  void backward_data(const void* w, const void* dy, void* dx, float beta);    // dX = conv^T(dY, W)
  void backward_filter(const void* x, const void* dy, void* dw, float beta);  // dW = sum dY (x) X

  // A chosen algorithm (forward, backward-data or backward-filter enum value) and its needs.
  struct Algo {
    int algo = -1;
    cudnnMathType_t math = CUDNN_DEFAULT_MATH;
    size_t workspace = 0;
  };

 private:
  enum Pass { kForward = 0, kBackwardData = 1, kBackwardFilter = 2 };
  void create_descriptors();  // on first setup (no cuDNN call before a kernel is set up)
  const Algo& algo(Pass pass);
  Algo choose(Pass pass);
  // timed: cuDNN's Find on scratch buffers, else its heuristic; false when no candidate is usable.
  bool choose_from(Pass pass, bool timed, Algo& chosen);
  struct FindScratch {
    std::shared_ptr<Buffer> x, w, y, workspace;
    size_t workspace_bytes = 0;
  };
  FindScratch find_scratch() const;
  // When some tensor has no elements: out = 0 (beta 0) or unchanged; true if the pass is done.
  bool handle_empty(void* out, int64_t elements, float beta) const;
  void* workspace(const Algo& a, std::shared_ptr<Buffer>& holder) const;

  std::string op_, key_;
  ConvProblem p_;
  cudnnDataType_t dtype_ = CUDNN_DATA_FLOAT;
  int device_ = 0;
  bool empty_ = false;
  int64_t x_elements_ = 0, w_elements_ = 0, y_elements_ = 0;
  size_t element_bytes_ = 4;
  cudnnTensorDescriptor_t x_desc_ = nullptr, y_desc_ = nullptr;
  cudnnFilterDescriptor_t w_desc_ = nullptr;
  cudnnConvolutionDescriptor_t conv_desc_ = nullptr;
  Algo algos_[3];
};

}  // namespace nn::cuda
