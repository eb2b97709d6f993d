// InferenceConv (conv_infer.hpp): a convolution's oneDNN primitives for one thread and for the whole team
// (chunked over the batch, or a swish layer's rows at batch 1, when they split), and the process-wide choice
// between them.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "ops/detail/machine_load.hpp"
#include "ops/detail/thread_scope.hpp"
#include "ops/nn_layer/conv_dnnl_primitive.hpp"

namespace nn::ops {
namespace {
// Work below which a team is not even tried: splitting costs more than it could save. The team's workers spin
// on a quiet machine (adaptive_wait.hpp), so a split costs ~1 us: at 1e6 MobileNetV2 b1 ran five depthwise
// convolutions of 7x7 (0.85 MFLOP, ~11 us each) on one thread while the other waited; at 2e5 it took 1.99 ->
// 1.90 ms and EfficientNet b1 3.54 -> 3.26 (medians of 6 alternating runs; 5e4 gained nothing more, 5e5 less
// on EfficientNet; busy, both within 1 %: TeamMode runs one thread there).
constexpr double kTeamTrialMinFlops = 2e5;
}  // namespace

// One thread or the whole team, for every inference convolution at once, chosen by timing windows of calls
// in each mode: on a busy machine a team waits at its barriers for workers the scheduler has not run and one
// thread wins; on an idle one the team wins. (A choice per convolution would time the team's wake-up after
// a run of one-thread calls and never leave one thread.) The slower mode is tried again after 8 windows, and
// after twice as many each time it loses again (up to 64): a fixed 1 in 8 cost ResNet-like models ~10 %
// on an idle machine, where one thread is ~1.8x slower. A change of load changes the choice. A window is
// 128 calls, or fewer (at least 16) once they took 400 ms: ResNet-18 at batch 32 on a busy machine made
// 128 calls last seconds. Windows are scored in time per flop, as a short one holds a different mix.
// Whether the machine is busy is also measured: the CPU time other processes took (machine_load.hpp). Once one
// thread has lost to the team, windows in which others took hardly any (a quiet machine) try one thread no more,
// and the first quiet window after busy ones in one-thread mode tries the team at once.
class TeamMode {
 public:
  static TeamMode& instance() {
    static TeamMode mode;
    return mode;
  }
  bool team() {
    std::lock_guard<std::mutex> lock(mutex_);
    return team_;
  }
  void record(double ms, double flops) {
    std::lock_guard<std::mutex> lock(mutex_);
    sum_ms_ += ms;
    sum_flops_ += flops;
    if (++count_ < kWindow && (count_ < kMinWindow || sum_ms_ < kWindowMs)) return;
    const double mean = sum_ms_ / std::max(sum_flops_, 1.0);
    sum_ms_ = 0, sum_flops_ = 0, count_ = 0;
    const bool was_quiet = quiet_;
    quiet_ = quiet_meter_.measure();
    if (!warmed_up_) {  // the first window ran cold (first executions, caches): it scores nothing
      warmed_up_ = true;
      return;
    }
    // A try of the slower mode replaces its old score, taken many windows ago, rather than averaging with it.
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

 private:
  // The mode of the next window.
  void choose(bool team_faster, bool was_quiet) {
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

  static constexpr int kWindow = 128, kMinWindow = 16;  // convolution calls per timed window
  static constexpr double kWindowMs = 400;              // a window of this many ms ends after kMinWindow
  static constexpr int kMinApart = 8, kMaxApart = 64;   // windows between tries of the slower mode

  std::mutex mutex_;
  QuietMeter quiet_meter_;  // since the last window
  bool quiet_ = false;
  bool team_ = true;  // an idle machine is the first guess
  bool trying_ = false;
  bool warmed_up_ = false;
  double sum_ms_ = 0, sum_flops_ = 0, score_[2] = {0, 0};
  int count_ = 0, since_try_ = 0, tries_apart_ = kMinApart;
};

// The convolution with one primitive per team size worth trying: one thread, and the whole team when the
// work is large enough for it to pay on an idle machine. TeamMode says which runs.
class InferenceConv {
 public:
  std::vector<std::unique_ptr<Primitive>> variants;
  std::unique_ptr<ChunkedPrimitive> chunked;  // the team's way when the work splits (replaces the team's)
  double flops = 0;

  void forward(NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y) {
    // One thread only: small work, inside a parallel region, or a team of one set after the primitives were made
    // (a small network run on the calling thread, runtime/session/calling_thread.hpp), where the chunked team's
    // own thread count would still split.
    if (variants.size() == 1 || omp_get_max_threads() == 1) {
      run_keeping_team_awake([&] { variants.front()->forward(x, w, b, z, y); });
      return;
    }
    TeamMode& mode = TeamMode::instance();
    const bool team = mode.team();
    Primitive& p = *variants[team ? variants.size() - 1 : 0];
    const auto t0 = std::chrono::steady_clock::now();
    if (team && chunked)
      chunked->forward(p, x, w, b, z, y);
    else
      p.forward(x, w, b, z, y);
    mode.record(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), flops);
  }
};

std::shared_ptr<InferenceConv> make_inference_conv(const ConvGeometry& g, int64_t out_channels, int64_t group,
                                                   int64_t batch, const ConvEpilogue& e) {
  double flops = g.flops(out_channels, group, batch);
  std::vector<int> teams{1};
  const int team = omp_in_parallel() ? 1 : omp_get_max_threads();
  if (team > 1 && flops >= kTeamTrialMinFlops) teams.push_back(team);
  auto conv = std::make_shared<InferenceConv>();
  conv->flops = flops;
  for (int threads : teams)
    if (auto p = make_primitive(g, out_channels, group, batch, e, threads)) conv->variants.push_back(std::move(p));
  if (conv->variants.empty()) return nullptr;
  // The team runs parts of the output where the work splits (NN_CONV_CHUNKS=0 keeps the team primitive, to
  // compare). Chunks of the batch: quiet, small ResNet b32 11.8 -> 10.9 ms and resnet18 b32 243 -> 234; busy,
  // 39.8 -> 32 and 928 -> 820. Bands of rows of a swish layer at batch 1: see make_chunked.
  static const bool chunks_on = env_switch_on("NN_CONV_CHUNKS");
  if (chunks_on && conv->variants.size() > 1)
    conv->chunked = make_chunked(*conv->variants.back(), g, out_channels, group, batch, e, team);
  return conv;
}

void run_inference_conv(InferenceConv& conv, NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y) {
  conv.forward(x, w, b, z, y);
}

}  // namespace nn::ops
