// InferenceConv (conv_infer.hpp): a convolution's oneDNN primitives for one thread and for the whole team
// (chunked over the batch, or a swish layer's rows at batch 1, when they split), and the process-wide choice
// between them.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "ops/detail/team_mode.hpp"
#include "ops/detail/thread_scope.hpp"
#include "ops/nn_layer/conv_dnnl_primitive.hpp"

namespace nn::ops {

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
