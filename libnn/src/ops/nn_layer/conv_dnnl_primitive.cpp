// A whole-batch inference convolution primitive (conv_dnnl_primitive.hpp): one forward_inference primitive
// with bias and post-ops for one team size; each operand read or written in place when the primitive's layout
// is plain or one of the oneDNN layouts NdArray holds (dnnl_layout.hpp), reordered otherwise.
#include "ops/nn_layer/conv_dnnl_primitive.hpp"

#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "ops/detail/thread_scope.hpp"
#include "ops/detail/thread_scratch.hpp"
#include "ops/detail/vector_math.hpp"

namespace nn::ops {
namespace {
using dnnl::memory;
using Tag = memory::format_tag;
constexpr auto kF32 = memory::data_type::f32;

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
  else if (act == "hard_sigmoid")
    ops.append_eltwise(1.f, A::eltwise_linear, e.alpha, e.beta),
        ops.append_eltwise(1.f, A::eltwise_clip, 0.f, 1.f);
  else if (act == "hard_swish")  // oneDNN 2.6's: x * relu6(x + 3) / 6
    ops.append_eltwise(1.f, A::eltwise_hardswish, 0.f, 0.f);
  else if (act == "swish")
    ops.append_eltwise(1.f, A::eltwise_swish, 1.f, 0.f);
}

// 3x3 stride-1 convolutions of 64 to 128 input and output channels run as Winograd F(4x4, 3x3) (oneDNN's
// AVX-512 kernel: 2.25x fewer multiplications; ResNet's first stages), and those of 32 input and 32 output
// channels. The direct kernel takes the other geometries: Winograd on SqueezeNet's 32-48 -> 128-192 expand layers
// lost (0.375 -> 0.40 ms with the reorders around them) and ResNet-20's 16-channel layers gained nothing, while
// eight 32 -> 32 layers ran 1.32 -> 0.94 ms at 32x32 and 0.33 -> 0.245 at 16x16 (one thread, batch 1, min of 200;
// 15.0 -> 8.0 at batch 8) and ResNet-20 0.675 -> 0.62. Wider layers gain less and their transformed weights (4x
// the 3x3 ones) cost more: up to 256 channels, resnet18 b1 ran 1.4% faster than with 128 but held 21 MB more.
// The outputs differ from the direct sums by rounding (about 1e-6 of their scale).
// NN_CONV_WINOGRAD=0 keeps every layer direct.
constexpr int64_t kMaxWinogradChannels = 128, kMinSquareWinogradChannels = 32;
bool winograd_wanted(const DnnlConvDims& d) {
  static const bool enabled = env_switch_on("NN_CONV_WINOGRAD");
  const auto& w = d.wei;  // (out, in, kh, kw) without groups
  const bool wide =
      w.size() == 4 && ((w[0] >= 64 && w[1] >= 64) || (w[0] == w[1] && w[0] >= kMinSquareWinogradChannels));
  return enabled && wide && w[2] == 3 && w[3] == 3 && w[0] <= kMaxWinogradChannels &&
         w[1] <= kMaxWinogradChannels && d.strides[0] == 1 && d.strides[1] == 1 && d.dilates[0] == 0 &&
         d.dilates[1] == 0;
}
// The copy of weights `w` in layout `md` that every primitive reading them so shares: a convolution's one-thread
// and team primitives, and the copies of a network that run a batch's chunks (batch_split.hpp) on the same
// parameters. Made (empty, filled at first use) when none is alive.
std::shared_ptr<ReorderedWeights> weights_copy(const NdArray& w, const memory::desc& user,
                                               const memory::desc& md) {
  static std::mutex mutex;
  static std::map<const NdArray*, std::vector<std::weak_ptr<ReorderedWeights>>> copies;
  std::lock_guard<std::mutex> lock(mutex);
  auto& list = copies[&w];
  std::erase_if(list, [](const std::weak_ptr<ReorderedWeights>& c) { return c.expired(); });
  for (const auto& c : list)
    if (auto alive = c.lock(); alive->weights.get_desc() == md) return alive;
  auto made = std::make_shared<ReorderedWeights>();
  made->weights = memory(md, dnnl_cpu_engine());
  made->from_user = dnnl::reorder(memory(user, dnnl_cpu_engine(), DNNL_MEMORY_NONE), made->weights);
  list.push_back(made);
  return made;
}
}  // namespace

bool activation_after(const ConvEpilogue& e, int threads) { return e.activation == "swish" && threads == 1; }

void apply_activation_after(float* y, int64_t n) { swish_array(y, y, n); }

Place place_of(const memory::desc& want, const memory::desc& plain, ArrayKey& layout_key) {
  if (want == plain) return Place::kPlain;
  layout_key = ArrayKey{DType::kFloat32, dnnl_layout_of(want)};
  return layout_key.device.empty() ? Place::kReordered : Place::kLayout;
}

const void* data_in_place(NdArray& a, Place place, const ArrayKey& layout) {
  return place == Place::kPlain ? static_cast<const void*>(a.get<float>()) : a.get_raw(layout);
}

void* data_in_place_for_write(NdArray& a, Place place, const ArrayKey& layout) {
  return place == Place::kPlain ? static_cast<void*>(a.cast<float>(true)) : a.cast_raw(layout, true);
}

ResidualDestination residual_destination(NdArray* z, NdArray& y, Place place, const ArrayKey& layout) {
  const void* held = z ? data_in_place(*z, place, layout) : nullptr;
  void* dst = data_in_place_for_write(y, place, layout);
  return {dst, held == dst ? nullptr : held};
}

dnnl::convolution_forward::primitive_desc inference_conv_desc(const memory::desc& src, const memory::desc& wei,
                                                              const memory::desc& bias, const memory::desc& dst,
                                                              const DnnlConvDims& d, const ConvEpilogue& e,
                                                              int threads, bool user_scratchpad) {
  dnnl::post_ops ops;
  if (e.residual) ops.append_sum(1.f);
  if (!activation_after(e, threads)) append_activation(ops, e);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  if (user_scratchpad) attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const auto prop = dnnl::prop_kind::forward_inference;
  auto desc_of = [&](dnnl::algorithm algo) {
    return dnnl::convolution_forward::primitive_desc(
        e.bias
            ? dnnl::convolution_forward::desc(prop, algo, src, wei, bias, dst, d.strides, d.dilates, d.pad_l,
                                              d.pad_r)
            : dnnl::convolution_forward::desc(prop, algo, src, wei, dst, d.strides, d.dilates, d.pad_l, d.pad_r),
        attr, dnnl_cpu_engine());
  };
  if (winograd_wanted(d)) {
    try {
      return desc_of(dnnl::algorithm::convolution_winograd);
    } catch (const dnnl::error&) {  // no Winograd kernel for this CPU or geometry: the direct one
    }
  }
  return desc_of(dnnl::algorithm::convolution_direct);
}

std::unique_ptr<Primitive> make_primitive(const ConvGeometry& g, int64_t out_channels, int64_t group,
                                          int64_t batch, const ConvEpilogue& e, int threads) {
  DnnlConvDims dims;
  if (!dnnl_conv_dims(g, out_channels, group, batch, dims)) return nullptr;
  const memory::dims &src = dims.src, &dst = dims.dst, &wei = dims.wei;
  ThreadScope scope(threads);
  try {
    register_dnnl_layouts();
    auto c = std::make_unique<Primitive>();
    c->threads = threads;
    c->residual = e.residual;
    c->activation_after = activation_after(e, threads);
    c->src_plain = dnnl_plain_desc(src);
    c->dst_plain = dnnl_plain_desc(dst);
    c->wei_user = dnnl_plain_desc(wei);
    c->bias_md = e.bias ? memory::desc({out_channels}, kF32, Tag::a) : memory::desc();
    const memory::desc src_any(src, kF32, Tag::any), dst_any(dst, kF32, Tag::any), wei_any(wei, kF32, Tag::any);
    const auto pd = inference_conv_desc(src_any, wei_any, c->bias_md, dst_any, dims, e, threads);
    c->fwd = dnnl::convolution_forward(pd);
    c->src_md = pd.src_desc();
    c->wei_md = pd.weights_desc();
    c->dst_md = pd.dst_desc();
    c->src_place = place_of(c->src_md, c->src_plain, c->src_layout);
    c->dst_place = place_of(c->dst_md, c->dst_plain, c->dst_layout);
    if (c->src_place == Place::kReordered) {
      c->src_tmp = memory(c->src_md, c->eng, DNNL_MEMORY_NONE);  // in the thread's scratch at each call
      c->src_in = dnnl::reorder(memory(c->src_plain, c->eng, DNNL_MEMORY_NONE), c->src_tmp);
    }
    if (c->dst_place == Place::kReordered) {
      c->dst_tmp = memory(c->dst_md, c->eng, DNNL_MEMORY_NONE);
      c->dst_in = dnnl::reorder(memory(c->dst_plain, c->eng, DNNL_MEMORY_NONE), c->dst_tmp);
      c->dst_out = dnnl::reorder(c->dst_tmp, memory(c->dst_plain, c->eng, DNNL_MEMORY_NONE));
    }
    c->reorders_weights = c->wei_md != c->wei_user;
    return c;
  } catch (const dnnl::error&) {
    return nullptr;  // no oneDNN kernel for this configuration: the caller's path runs it
  }
}

memory Primitive::weights(NdArray& w) {
  if (!reorders_weights) return memory(wei_md, eng, const_cast<float*>(w.get<float>()));
  if (!reordered) reordered = weights_copy(w, wei_user, wei_md);
  std::lock_guard<std::mutex> lock(reordered->mutex);
  if (reordered->version != w.version()) {
    memory user(wei_user, eng, const_cast<float*>(w.get<float>()));
    reordered->from_user.execute(stream, user, reordered->weights);
    stream.wait();
    reordered->version = w.version();
  }
  return reordered->weights;
}

void Primitive::forward(NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y) {
  ThreadScope scope(threads);
  const size_t src_bytes = src_place == Place::kReordered ? scratch_part(src_md.get_size()) : 0;
  const size_t dst_bytes = dst_place == Place::kReordered ? scratch_part(dst_md.get_size()) : 0;
  if (src_bytes + dst_bytes > 0) {
    char* scratch = thread_scratch(src_bytes + dst_bytes);
    if (src_bytes) src_tmp.set_data_handle(scratch);
    if (dst_bytes) dst_tmp.set_data_handle(scratch + src_bytes);
  }
  // Source.
  memory src_mem;
  if (src_place == Place::kReordered) {
    memory user(src_plain, eng, const_cast<float*>(x.get<float>()));
    src_in.execute(stream, user, src_tmp);
    src_mem = src_tmp;
  } else {
    src_mem = memory(src_md, eng, const_cast<void*>(data_in_place(x, src_place, src_layout)));
  }
  memory wei_mem = weights(w);
  // Destination, holding z first when the residual is summed into it.
  memory dst_mem;
  if (dst_place == Place::kReordered) {
    if (residual) {
      memory user(dst_plain, eng, const_cast<float*>(z->get<float>()));
      dst_in.execute(stream, user, dst_tmp);
    }
    dst_mem = dst_tmp;
  } else {
    const ResidualDestination d = residual_destination(residual ? z : nullptr, y, dst_place, dst_layout);
    dst_mem = memory(dst_md, eng, d.dst);
    if (d.z_to_copy) std::memcpy(d.dst, d.z_to_copy, dst_md.get_size());
  }
  std::unordered_map<int, memory> args{
      {DNNL_ARG_SRC, src_mem}, {DNNL_ARG_WEIGHTS, wei_mem}, {DNNL_ARG_DST, dst_mem}};
  if (b) args.emplace(DNNL_ARG_BIAS, memory(bias_md, eng, const_cast<float*>(b->get<float>())));
  fwd.execute(stream, args);
  if (activation_after) {
    stream.wait();
    apply_activation_after(static_cast<float*>(dst_mem.get_data_handle()),
                           int64_t(dst_md.get_size() / sizeof(float)));
  }
  if (dst_place == Place::kReordered) {
    memory user(dst_plain, eng, y.cast<float>(true));
    dst_out.execute(stream, dst_tmp, user);
  }
  stream.wait();
}

}  // namespace nn::ops
