// TeamMode (team_mode.hpp): the windows of timed inference calls and the choice between one thread and the team.
#include "ops/detail/team_mode.hpp"

#include <algorithm>

#include "ops/detail/thread_scope.hpp"

namespace nn::ops {

TeamMode& TeamMode::instance() {
  static TeamMode mode;
  return mode;
}

bool TeamMode::team() {
  std::lock_guard<std::mutex> lock(mutex_);
  return team_;
}

void TeamMode::record(double ms, double flops) {
  std::lock_guard<std::mutex> lock(mutex_);
  sum_ms_ += ms;
  sum_flops_ += flops;
  if (++count_ < kWindow && (count_ < kMinWindow || sum_ms_ < kWindowMs)) return;
  const double mean = sum_ms_ / std::max(sum_flops_, 1.0);
  sum_ms_ = 0, sum_flops_ = 0, count_ = 0;
  const bool was_quiet = quiet_;
  quiet_ = quiet_meter_.measure();
  if (!warmed_up_) {
    warmed_up_ = true;
    return;
  }
  double& score = score_[team_ ? 1 : 0];
  score = score == 0 || trying_ ? mean : 0.5 * score + 0.5 * mean;
  // The team runs first (the idle machine's choice); one thread is first tried after kMinApart windows.
  const bool team_faster = score_[0] == 0 || score_[1] < score_[0];
  if (trying_) {  // this window tried the slower mode again: did it win?
    trying_ = false;
    tries_apart_ = team_ == team_faster ? kMinApart : std::min(2 * tries_apart_, kMaxApart);
  }
  choose(team_faster, was_quiet);
  team_awake_wanted().store(team_ && quiet_, std::memory_order_relaxed);  // see run_keeping_team_awake
}

void TeamMode::choose(bool team_faster, bool was_quiet) {
  if (quiet_ && team_faster && score_[0] != 0) {  // one thread lost already, and nothing competes now
    team_ = true;
    since_try_ = 0;
    return;
  }
  if (quiet_ && !was_quiet && !team_) since_try_ = tries_apart_;  // the load ended: try the team now
  if (++since_try_ >= tries_apart_) {
    since_try_ = 0;
    trying_ = true;
    team_ = !team_faster;
  } else {
    team_ = team_faster;
  }
}

}  // namespace nn::ops
