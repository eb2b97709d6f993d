// StatNormalization: shared kernel of Tensor/Layer/Instance/Group normalization and WeightStandardization:
// standardize x with the mean and biased variance of each statistics group, then y = x_hat * gamma + beta.
#pragma once
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {

// How x is seen: `work` is x's shape (or a reshape of it, e.g. GroupNormalization splits the channel axis);
// `stat`, `beta` and `gamma` have work's rank, each dim equal to work's or 1 (a broadcast onto work).
// Statistics are taken over the work axes where `stat` is 1.
struct NormLayout {
  Shape work, stat, beta, gamma;
};

// Inputs: x, beta (absent with no_bias), gamma (absent with no_scale). Outputs: y, optionally the
// statistics mean and variance (shape `stat`, or `stat_out` when the subclass sets it).
class StatNormalization : public Function {
 public:
  StatNormalization(const OpSchema& s, const Context& c, const Attrs& a);

 protected:
  // Checks shapes and returns the layout for input shapes (x first); called from setup_impl.
  virtual NormLayout make_layout(const Variables& in) = 0;
  // The shape of the mean/variance outputs (default: layout's stat shape).
  virtual Shape stat_output_shape(const NormLayout& l) const { return l.stat; }

  void setup_impl(const Variables& in, const Variables& out) override;
  void forward_impl(const Variables& in, const Variables& out) override;
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override;

  // Throws unless param's shape equals `want`, naming the op, the input and x's shape.
  void check_param(const Variables& in, int index, const char* name, const Shape& want) const;

  float eps_;
  bool no_scale_, no_bias_;
  int beta_ = -1, gamma_ = -1;  // input indices (-1: absent)

 private:
  // A run of elements [begin, begin + len) of one statistics group whose beta/gamma offsets start at
  // beta/gamma and advance by `stride` (1: a run of distinct parameters, 0: one shared parameter).
  struct ParamRun {
    int64_t begin, len, beta, gamma;
  };
  void compute_stats(const float* x);
  // The per-element offsets, or none where the layout is contiguous by position (groups_by_position).
  void plan_contiguous();
  void compute_group_stats(const float* x, int64_t g);
  void forward_contiguous(const float* x, const float* beta, const float* gamma, float* y);
  void backward_contiguous(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                           const std::vector<bool>& accum);
  NormLayout layout_;
  // Fast path: each statistics group is a contiguous block of count_ elements (group g at g * count_),
  // its parameter offsets described by runs (runs_per_group_ per group, all of the same stride).
  bool contiguous_ = false;
  int64_t runs_per_group_ = 0, run_stride_ = 0;
  std::vector<ParamRun> runs_;
  int64_t groups_ = 1, count_ = 1;                              // statistic groups, elements per group
  std::vector<int64_t> stat_index_, beta_index_, gamma_index_;  // per work element
  std::vector<double> mean_, rstd_, var_;
};

// Offset into `target` (broadcast onto `work`, dims 1 or equal) for every element of work, in C order.
std::vector<int64_t> broadcast_offsets(const Shape& work, const Shape& target);

}  // namespace nn::ops
