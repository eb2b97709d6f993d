// Dynamic loss scaling for mixed-precision (cudnn:half) training, as nnabla's mixed-precision tutorial and
// DynamicLossScalingUpdater describe: backward from loss * scale; grads holding inf/nan lower the scale and
// skip the update; otherwise grads are unscaled, and after `interval` good updates the scale grows.
#pragma once
#include <cstdint>

#include "nn/solvers/solver.hpp"

namespace nn::train {

struct LossScalingOptions {
  bool enabled = false;
  double initial_scale = 8.0;  // nnabla's DynamicLossScalingUpdater defaults
  double factor = 2.0;
  int64_t interval = 2000;
};

class DynamicLossScaler {
 public:
  explicit DynamicLossScaler(const LossScalingOptions& options);

  // The factor the backward seed is multiplied by.
  double scale() const { return scale_; }
  // Good updates since the scale last changed.
  int64_t counter() const { return counter_; }
  int64_t skipped_updates() const { return skipped_; }
  // Restores a saved scale and counter (resume).
  void restore(double scale, int64_t counter);

  // Call after backward (and any all-reduce), before weight decay and update. True: the grads were finite
  // and are now unscaled (multiplied by 1/scale); go on with the update. False: some grad held inf or NaN;
  // the scale was divided by the factor and the update must be skipped.
  bool unscale_or_skip(Solver& solver);

 private:
  LossScalingOptions options_;
  double scale_;
  int64_t counter_ = 0;
  int64_t skipped_ = 0;
};

}  // namespace nn::train
