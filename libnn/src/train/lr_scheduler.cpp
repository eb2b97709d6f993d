// Learning-rate schedules of nnabla_cli train (docs/command_line.md#train-learning-rate-schedules).
#include "nn/train/lr_scheduler.hpp"

#include <cmath>
#include <sstream>

#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn::train {

namespace {
constexpr double kPi = 3.14159265358979323846;

// x // w when x > w, else 1 (upstream's rule for intervals under data parallelism).
int64_t divided_interval(int64_t x, int64_t world_size) { return x > world_size ? x / world_size : 1; }
}  // namespace

double initial_learning_rate(const ir::Solver& solver) {
  for (const char* key : {"lr", "alpha", "eta"})
    if (solver.params.has(key)) return solver.params.get_float(key, 0.0);
  return 0.0;
}

LearningRateScheduler::LearningRateScheduler(const ir::Solver& solver, double lr0, int64_t max_iter,
                                             int64_t world_size)
    : lr0_(lr0) {
  const int64_t w = world_size < 1 ? 1 : world_size;
  const Attrs& p = solver.lr_scheduler_params;
  const std::string& type = solver.lr_scheduler_type;
  std::ostringstream desc;
  if (type.empty()) {
    if (solver.lr_decay_interval == 0 && solver.lr_decay != 0.0 && solver.lr_decay != 1.0) {
      // nnabla_cli would decay at every iteration and nbla divides by zero; neither is meant.
      NN_LOG_WARNING << "solver " << solver.type << ": lr_decay " << solver.lr_decay
                     << " with lr_decay_interval 0: the learning rate is kept constant";
    } else if (solver.lr_decay_interval != 0 || solver.lr_decay != 0.0) {
      kind_ = Kind::kLegacyStep;
      gamma_ = solver.lr_decay > 0 ? solver.lr_decay : 1.0;
      interval_ = divided_interval(solver.lr_decay_interval, w);
      if (gamma_ == 1.0) kind_ = Kind::kConstant;
    }
  } else if (type == "Polynomial") {
    power_ = p.get_float("power", 0.0);
    length_ = max_iter / w;
    if (power_ != 0.0) kind_ = Kind::kPolynomial;
  } else if (type == "Cosine") {
    length_ = max_iter / w;
    kind_ = Kind::kCosine;
  } else if (type == "Exponential") {
    gamma_ = p.get_float("gamma", 1.0);
    interval_ = divided_interval(p.get_int("iter_interval", 0), w);
    if (gamma_ != 1.0) kind_ = Kind::kExponential;
  } else if (type == "Step") {
    gamma_ = p.get_float("gamma", 1.0);
    for (int64_t s : p.get_ints("iter_steps", {})) steps_.push_back(s / w);
    if (gamma_ != 1.0 && !steps_.empty()) kind_ = Kind::kStep;
  } else if (type == "Custom") {
    NN_FAIL(ErrorCode::kUnsupported) << "Learning Rate Scheduler \"Custom\" is not supported.";
  } else {
    NN_FAIL(ErrorCode::kInvalid) << "Learning Rate Scheduler \"" << type << "\" is not supported.";
  }
  if (length_ < 1) length_ = 1;
  if (solver.lr_warmup_scheduler_type == "Linear" && solver.warmup_iter >= w) warmup_ = solver.warmup_iter / w;

  switch (kind_) {
    case Kind::kConstant: desc << "constant " << lr0_; break;
    case Kind::kLegacyStep: desc << lr0_ << " x " << gamma_ << "^(it // " << interval_ << ")"; break;
    case Kind::kPolynomial: desc << "Polynomial power " << power_ << " over " << length_ << " iterations"; break;
    case Kind::kCosine: desc << "Cosine over " << length_ << " iterations"; break;
    case Kind::kExponential: desc << "Exponential " << gamma_ << " every " << interval_ << " iterations"; break;
    case Kind::kStep: desc << "Step " << gamma_ << " at " << steps_.size() << " steps"; break;
  }
  if (warmup_ > 0) desc << ", linear warm-up over " << warmup_ << " iterations";
  description_ = desc.str();
}

double LearningRateScheduler::rate(int64_t it) const {
  double lr = lr0_;
  switch (kind_) {
    case Kind::kConstant: break;
    case Kind::kLegacyStep:
    case Kind::kExponential: lr = lr0_ * std::pow(gamma_, double(it / interval_)); break;
    case Kind::kPolynomial: lr = lr0_ * std::pow(1.0 - double(it) / double(length_), power_); break;
    case Kind::kCosine: lr = lr0_ * (std::cos(kPi * double(it) / double(length_)) + 1.0) / 2.0; break;
    case Kind::kStep: {
      int passed = 0;
      for (int64_t s : steps_) passed += it >= s ? 1 : 0;
      lr = lr0_ * std::pow(gamma_, double(passed));
      break;
    }
  }
  if (warmup_ > 0 && it < warmup_) lr *= double(it + 1) / double(warmup_);
  return lr;
}

}  // namespace nn::train
