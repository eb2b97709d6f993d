// Learning-rate schedules of nnabla_cli train (docs/command_line.md#train-learning-rate-schedules): the
// obsolete lr_decay, Polynomial, Cosine, Exponential, Step, plus the Linear warm-up.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::train {

class LearningRateScheduler {
 public:
  // lr0 is the solver's initial rate (lr / alpha / eta); max_iter = max_epoch * iter_per_epoch;
  // world_size divides the schedule lengths (MPI; 1 otherwise). Throws nn::Error for "Custom" and
  // unknown scheduler types.
  LearningRateScheduler(const ir::Solver& solver, double lr0, int64_t max_iter, int64_t world_size = 1);

  // Learning rate for the global 0-based iteration it.
  double rate(int64_t it) const;
  // One line describing the schedule ("constant", "Cosine over 300 iterations", ...), for the log.
  const std::string& description() const { return description_; }

 private:
  enum class Kind { kConstant, kLegacyStep, kPolynomial, kCosine, kExponential, kStep };
  Kind kind_ = Kind::kConstant;
  double lr0_;
  double gamma_ = 1.0;    // decay factor (legacy, Exponential, Step)
  double power_ = 0.0;    // Polynomial
  int64_t interval_ = 1;  // legacy / Exponential
  int64_t length_ = 1;    // Polynomial / Cosine
  std::vector<int64_t> steps_;
  int64_t warmup_ = 0;  // 0: no warm-up
  std::string description_;
};

// The initial learning rate of a solver: lr, alpha or eta of its parameter message (0 when none).
double initial_learning_rate(const ir::Solver& solver);

}  // namespace nn::train
