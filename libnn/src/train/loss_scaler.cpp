// DynamicLossScaler: the scale bookkeeping around Solver::check_inf_or_nan_grad and scale_grad.
#include "nn/train/loss_scaler.hpp"

#include <algorithm>

#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn::train {

namespace {
// A scale below this means the network itself produces inf/NaN; above the other the seed leaves float range.
constexpr double kMinScale = 1.0 / (1 << 24);
constexpr double kMaxScale = 3.0e38;
}  // namespace

DynamicLossScaler::DynamicLossScaler(const LossScalingOptions& options)
    : options_(options), scale_(options.initial_scale) {
  NN_CHECK_CODE(options.initial_scale > 0.0 && options.initial_scale <= kMaxScale, ErrorCode::kUsage)
      << "loss scale must be positive and at most " << kMaxScale << ", got " << options.initial_scale;
  NN_CHECK_CODE(options.factor > 1.0, ErrorCode::kUsage)
      << "loss scaling factor must be greater than 1, got " << options.factor;
  NN_CHECK_CODE(options.interval > 0, ErrorCode::kUsage)
      << "loss scaling interval must be positive, got " << options.interval;
}

void DynamicLossScaler::restore(double scale, int64_t counter) {
  NN_CHECK(scale > 0.0 && counter >= 0) << "checkpoint: bad loss scale " << scale << " / counter " << counter;
  scale_ = scale;
  counter_ = counter;
}

bool DynamicLossScaler::unscale_or_skip(Solver& solver) {
  if (solver.check_inf_or_nan_grad()) {
    ++skipped_;
    counter_ = 0;
    NN_CHECK(scale_ / options_.factor >= kMinScale) << "gradients hold inf or NaN even at loss scale " << scale_
                                                    << ": the network diverged (not a loss-scaling overflow)";
    scale_ /= options_.factor;
    NN_LOG_DEBUG << "loss scaling: inf/NaN in gradients, update skipped, scale now " << scale_;
    return false;
  }
  if (scale_ != 1.0) solver.scale_grad(1.0 / scale_);
  // nnabla's order: the scale grows when the count before this update exceeds the interval.
  if (counter_ > options_.interval) {
    scale_ = std::min(scale_ * options_.factor, kMaxScale);
    counter_ = 0;
  }
  ++counter_;
  return true;
}

}  // namespace nn::train
