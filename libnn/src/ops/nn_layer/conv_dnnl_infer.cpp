// The oneDNN side of InferenceConv: one forward_inference primitive with bias and post-ops; each operand
// read or written in place when the primitive's layout is plain or one of the oneDNN layouts NdArray holds
// (dnnl_layout.hpp), reordered otherwise.
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <vector>

#include "ops/detail/dnnl_layout.hpp"
#include "ops/detail/thread_scope.hpp"
#include "ops/nn_layer/conv_dnnl_dims.hpp"
#include "ops/nn_layer/conv_infer.hpp"

namespace nn::ops {
namespace {
using dnnl::memory;
using Tag = memory::format_tag;
constexpr auto kF32 = memory::data_type::f32;

// Where an activation operand lives for the primitive: in the array's plain copy, in its copy of one of
// the oneDNN layouts, or in the primitive's own buffer reordered from and to the plain copy.
enum class Place { kPlain, kLayout, kReordered };

Place place_of(const memory::desc& want, const memory::desc& plain, ArrayKey& layout_key) {
  if (want == plain) return Place::kPlain;
  layout_key = ArrayKey{DType::kFloat32, dnnl_layout_of(want)};
  return layout_key.device.empty() ? Place::kReordered : Place::kLayout;
}

// Work below which a team is not even tried: waking a second thread costs more than it could save.
constexpr double kTeamTrialMinFlops = 1e6;

void append_activation(dnnl::post_ops& ops, const ConvEpilogue& e) {
  using A = dnnl::algorithm;
  const std::string& act = e.activation;
  if (act == "relu")
    ops.append_eltwise(1.f, A::eltwise_relu, 0.f, 0.f);
  else if (act == "leaky_relu")
    ops.append_eltwise(1.f, A::eltwise_relu, e.alpha, 0.f);
  else if (act == "relu6")
    ops.append_eltwise(1.f, A::eltwise_clip, 0.f, 6.f);
  else if (act == "sigmoid")
    ops.append_eltwise(1.f, A::eltwise_logistic, 0.f, 0.f);
  else if (act == "tanh")
    ops.append_eltwise(1.f, A::eltwise_tanh, 0.f, 0.f);
  else if (act == "elu")
    ops.append_eltwise(1.f, A::eltwise_elu, e.alpha, 0.f);
  else if (act == "swish")
    ops.append_eltwise(1.f, A::eltwise_swish, 1.f, 0.f);
}
}  // namespace

// Weights reordered into the layout a primitive wants, redone only when their content changes; a
// convolution's one-thread and team primitives share one copy when they want the same layout.
struct ReorderedWeights {
  memory weights;
  dnnl::reorder from_user;
  uint64_t version = 0;  // the content they came from (0: none yet)
};

// One primitive made for one team size (oneDNN fixes the split of the work when it makes it).
class Primitive {
 public:
  dnnl::engine eng = dnnl_cpu_engine();  // shared, so the primitives of a convolution can share memory
  dnnl::stream stream{eng};
  dnnl::convolution_forward fwd;
  memory::desc src_md, wei_md, dst_md, src_plain, dst_plain, wei_user, bias_md;
  Place src_place = Place::kPlain, dst_place = Place::kPlain;
  ArrayKey src_layout, dst_layout;        // the NdArray copy read or written in place (Place::kLayout)
  dnnl::reorder src_in, dst_in, dst_out;  // plain -> the primitive's src / dst, its dst -> plain
  memory src_tmp, dst_tmp;
  std::shared_ptr<ReorderedWeights> reordered;  // null: the primitive reads the weights as given
  bool residual = false;
  int threads = 1;

  void forward(NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y);
};

std::unique_ptr<Primitive> make_primitive(const ConvGeometry& g, int64_t out_channels, int64_t group,
                                          int64_t batch, const ConvEpilogue& e, int threads) {
  DnnlConvDims dims;
  if (!dnnl_conv_dims(g, out_channels, group, batch, dims)) return nullptr;
  const auto& [src, dst, wei, strides, dilates, pad_l, pad_r] = dims;
  ThreadScope scope(threads);
  try {
    register_dnnl_layouts();
    auto c = std::make_unique<Primitive>();
    c->threads = threads;
    c->residual = e.residual;
    c->src_plain = dnnl_plain_desc(src);
    c->dst_plain = dnnl_plain_desc(dst);
    c->wei_user = dnnl_plain_desc(wei);
    c->bias_md = e.bias ? memory::desc({out_channels}, kF32, Tag::a) : memory::desc();
    const memory::desc src_any(src, kF32, Tag::any), dst_any(dst, kF32, Tag::any), wei_any(wei, kF32, Tag::any);
    dnnl::post_ops ops;
    if (e.residual) ops.append_sum(1.f);
    append_activation(ops, e);
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    const auto algo = dnnl::algorithm::convolution_direct;
    const auto prop = dnnl::prop_kind::forward_inference;
    dnnl::convolution_forward::primitive_desc pd(
        e.bias ? dnnl::convolution_forward::desc(prop, algo, src_any, wei_any, c->bias_md, dst_any, strides,
                                                 dilates, pad_l, pad_r)
               : dnnl::convolution_forward::desc(prop, algo, src_any, wei_any, dst_any, strides, dilates, pad_l,
                                                 pad_r),
        attr, c->eng);
    c->fwd = dnnl::convolution_forward(pd);
    c->src_md = pd.src_desc();
    c->wei_md = pd.weights_desc();
    c->dst_md = pd.dst_desc();
    c->src_place = place_of(c->src_md, c->src_plain, c->src_layout);
    c->dst_place = place_of(c->dst_md, c->dst_plain, c->dst_layout);
    if (c->src_place == Place::kReordered) {
      c->src_tmp = memory(c->src_md, c->eng);
      c->src_in = dnnl::reorder(memory(c->src_plain, c->eng, DNNL_MEMORY_NONE), c->src_tmp);
    }
    if (c->dst_place == Place::kReordered) {
      c->dst_tmp = memory(c->dst_md, c->eng);
      c->dst_in = dnnl::reorder(memory(c->dst_plain, c->eng, DNNL_MEMORY_NONE), c->dst_tmp);
      c->dst_out = dnnl::reorder(c->dst_tmp, memory(c->dst_plain, c->eng, DNNL_MEMORY_NONE));
    }
    if (c->wei_md != c->wei_user) {
      c->reordered = std::make_shared<ReorderedWeights>();
      c->reordered->weights = memory(c->wei_md, c->eng);
      c->reordered->from_user =
          dnnl::reorder(memory(c->wei_user, c->eng, DNNL_MEMORY_NONE), c->reordered->weights);
    }
    return c;
  } catch (const dnnl::error&) {
    return nullptr;  // no oneDNN kernel for this configuration: the caller's path runs it
  }
}

void Primitive::forward(NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y) {
  ThreadScope scope(threads);
  // Source.
  memory src_mem;
  if (src_place == Place::kPlain) {
    src_mem = memory(src_md, eng, const_cast<float*>(x.get<float>()));
  } else if (src_place == Place::kLayout) {
    src_mem = memory(src_md, eng, const_cast<void*>(x.get_raw(src_layout)));
  } else {
    memory user(src_plain, eng, const_cast<float*>(x.get<float>()));
    src_in.execute(stream, user, src_tmp);
    src_mem = src_tmp;
  }
  // Weights: reordered again only when their content changed.
  memory wei_mem;
  if (reordered) {
    if (reordered->version != w.version()) {
      memory user(wei_user, eng, const_cast<float*>(w.get<float>()));
      reordered->from_user.execute(stream, user, reordered->weights);
      reordered->version = w.version();
    }
    wei_mem = reordered->weights;
  } else {
    wei_mem = memory(wei_md, eng, const_cast<float*>(w.get<float>()));
  }
  // Destination, holding z first when the residual is summed into it.
  memory dst_mem;
  const size_t dst_bytes = dst_md.get_size();
  if (dst_place == Place::kPlain) {
    dst_mem = memory(dst_md, eng, y.cast<float>(true));
    if (residual) std::memcpy(dst_mem.get_data_handle(), z->get<float>(), dst_bytes);
  } else if (dst_place == Place::kLayout) {
    dst_mem = memory(dst_md, eng, y.cast_raw(dst_layout, true));
    if (residual) std::memcpy(dst_mem.get_data_handle(), z->get_raw(dst_layout), dst_bytes);
  } else {
    if (residual) {
      memory user(dst_plain, eng, const_cast<float*>(z->get<float>()));
      dst_in.execute(stream, user, dst_tmp);
    }
    dst_mem = dst_tmp;
  }
  std::unordered_map<int, memory> args{
      {DNNL_ARG_SRC, src_mem}, {DNNL_ARG_WEIGHTS, wei_mem}, {DNNL_ARG_DST, dst_mem}};
  if (b) args.emplace(DNNL_ARG_BIAS, memory(bias_md, eng, const_cast<float*>(b->get<float>())));
  fwd.execute(stream, args);
  if (dst_place == Place::kReordered) {
    memory user(dst_plain, eng, y.cast<float>(true));
    dst_out.execute(stream, dst_tmp, user);
  }
  stream.wait();
}

// One thread or the whole team, for every inference convolution at once, chosen by timing windows of calls
// in each mode: on a busy machine a team waits at its barriers for workers the scheduler has not run and one
// thread wins; on an idle one the team wins. (A choice per convolution would time the team's wake-up after
// a run of one-thread calls and never leave one thread.) The slower mode is tried again after 8 windows, and
// after twice as many each time it loses again (up to 64): a fixed 1 in 8 cost ResNet-like models ~10 %
// on an idle machine, where one thread is ~1.8x slower. A change of load changes the choice.
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
  void record(double ms) {
    std::lock_guard<std::mutex> lock(mutex_);
    sum_ms_ += ms;
    if (++count_ < kWindow) return;
    const double mean = sum_ms_ / double(count_);
    sum_ms_ = 0, count_ = 0;
    double& score = score_[team_ ? 1 : 0];
    score = score == 0 ? mean : 0.5 * score + 0.5 * mean;
    if (++windows_ < 2) {  // one window of each first
      team_ = !team_;
      return;
    }
    const bool team_faster = score_[1] < score_[0];
    if (trying_) {  // this window tried the slower mode again: did it win?
      trying_ = false;
      tries_apart_ = team_ == team_faster ? kMinApart : std::min(2 * tries_apart_, kMaxApart);
    }
    if (++since_try_ >= tries_apart_) {
      since_try_ = 0;
      trying_ = true;
      team_ = !team_faster;
    } else {
      team_ = team_faster;
    }
  }

 private:
  static constexpr int kWindow = 128;                  // convolution calls per timed window
  static constexpr int kMinApart = 8, kMaxApart = 64;  // windows between tries of the slower mode
  std::mutex mutex_;
  bool team_ = true;  // an idle machine is the first guess
  bool trying_ = false;
  double sum_ms_ = 0, score_[2] = {0, 0};
  int count_ = 0, windows_ = 0, since_try_ = 0, tries_apart_ = kMinApart;
};

// The convolution with one primitive per team size worth trying: one thread, and the whole team when the
// work is large enough for it to pay on an idle machine. TeamMode says which runs.
class InferenceConv {
 public:
  std::vector<std::unique_ptr<Primitive>> variants;

  void forward(NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y) {
    TeamMode& mode = TeamMode::instance();
    Primitive& p = *variants[mode.team() ? variants.size() - 1 : 0];
    const auto t0 = std::chrono::steady_clock::now();
    p.forward(x, w, b, z, y);
    mode.record(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
};

std::shared_ptr<InferenceConv> make_inference_conv(const ConvGeometry& g, int64_t out_channels, int64_t group,
                                                   int64_t batch, const ConvEpilogue& e) {
  double flops = g.flops(out_channels, group, batch);
  std::vector<int> teams{1};
  const int team = omp_in_parallel() ? 1 : omp_get_max_threads();
  if (team > 1 && flops >= kTeamTrialMinFlops) teams.push_back(team);
  auto conv = std::make_shared<InferenceConv>();
  for (int threads : teams)
    if (auto p = make_primitive(g, out_channels, group, batch, e, threads)) conv->variants.push_back(std::move(p));
  if (conv->variants.empty()) return nullptr;
  const Primitive& first = *conv->variants.front();
  for (auto& p : conv->variants)
    if (p->reordered && first.reordered && p->wei_md == first.wei_md) p->reordered = first.reordered;
  return conv;
}

void run_inference_conv(InferenceConv& conv, NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y) {
  conv.forward(x, w, b, z, y);
}

}  // namespace nn::ops
