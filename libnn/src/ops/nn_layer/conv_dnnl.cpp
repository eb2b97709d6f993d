// oneDNN convolution primitives (forward, backward data, backward weights) on plain NC[D]HW arrays: the
// primitives pick their own blocked layouts and the arrays are reordered to and from them on each call, into
// the calling thread's scratch memory (weights' copies are the convolution's own). Keeping nine copies per
// convolution for the network's life instead cost ResNet-20 training at batch 128 660 MB.
#include "ops/nn_layer/conv_dnnl.hpp"
#include "ops/nn_layer/conv_dnnl_dims.hpp"

#include <oneapi/dnnl/dnnl.hpp>

#include <initializer_list>
#include <vector>

#include "ops/detail/dnnl_layout.hpp"
#include "ops/detail/thread_scope.hpp"
#include "ops/detail/thread_scratch.hpp"

namespace nn::ops {
namespace {
using dnnl::memory;
using Tag = memory::format_tag;

// A user array and, when the primitive wants another layout, a copy in that layout: in the thread's scratch for
// activations (`transient`; placed by Transients before each call), the convolution's own for weights.
struct Operand {
  memory user, internal;
  bool reorder = false, transient = false;
  size_t internal_bytes = 0;
  dnnl::reorder to_internal, to_user;
  const float* kept_data = nullptr;  // input_kept's array and its content version
  uint64_t kept_version = 0;

  void init(const memory::desc& user_md, const memory::desc& want, const dnnl::engine& eng, bool in_scratch) {
    user = memory(user_md, eng, DNNL_MEMORY_NONE);
    reorder = user_md != want;
    transient = reorder && in_scratch;
    internal_bytes = want.get_size();
    internal = !reorder ? user : transient ? memory(want, eng, DNNL_MEMORY_NONE) : memory(want, eng);
    if (reorder) {
      to_internal = dnnl::reorder(user, internal);
      to_user = dnnl::reorder(internal, user);
    }
  }
  // The memory the primitive reads, after copying the user's array into it when needed.
  memory& input(const float* p, dnnl::stream& s) {
    user.set_data_handle(const_cast<float*>(p));
    if (reorder) to_internal.execute(s, user, internal);
    return held();
  }
  // As input, but the copy is kept while the array (p, content version; 0: unknown) stays the same: inference
  // weights are reordered once.
  memory& input_kept(const float* p, uint64_t version, dnnl::stream& s) {
    if (!reorder || version == 0 || p != kept_data || version != kept_version) {
      input(p, s);
      kept_data = p;
      kept_version = version;
    }
    return held();
  }
  memory& output(float* p) {
    user.set_data_handle(p);
    return held();
  }
  // The memory the primitive reads or writes: the copy in its layout, or the user's array itself.
  memory& held() { return reorder ? internal : user; }
  void finish_output(dnnl::stream& s) {
    if (reorder) to_user.execute(s, internal, user);
  }
};
// Places the scratch copies of the operands one call uses side by side in the thread's scratch memory.
void place_in_scratch(std::initializer_list<Operand*> operands) {
  size_t total = 0;
  for (const Operand* o : operands)
    if (o->transient) total += scratch_part(o->internal_bytes);
  if (total == 0) return;
  char* p = thread_scratch(total);
  for (Operand* o : operands) {
    if (!o->transient) continue;
    o->internal.set_data_handle(p);
    p += scratch_part(o->internal_bytes);
  }
}
}  // namespace

struct DnnlConv::Impl {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{eng};
  dnnl::convolution_forward fwd;
  dnnl::convolution_backward_data bwd_data;
  dnnl::convolution_backward_weights bwd_weights;
  Operand f_src, f_wei, f_dst, d_diff_dst, d_wei, d_diff_src, w_src, w_diff_dst, w_diff_wei;
  bool same_diff_dst = false;  // backward data and backward weights read dy in the same layout
  int threads = 1;             // the team the primitives were made for (oneDNN fixes it at creation)
};

DnnlConv::DnnlConv(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DnnlConv::~DnnlConv() = default;

std::unique_ptr<DnnlConv> DnnlConv::create(const ConvGeometry& g, int64_t out_channels, int64_t group,
                                           int64_t batch) {
  DnnlConvDims dims;
  if (!dnnl_conv_dims(g, out_channels, group, batch, dims)) return nullptr;
  const auto& [src, dst, wei, strides, dilates, pad_l, pad_r] = dims;
  double flops = g.flops(out_channels, group, batch);
  const int threads = threads_for_flops(flops);
  ThreadScope scope(threads);
  try {
    auto impl = std::make_unique<Impl>();
    impl->threads = threads;
    const auto f32 = memory::data_type::f32;
    const memory::desc src_user = dnnl_plain_desc(src), dst_user = dnnl_plain_desc(dst),
                       wei_user = dnnl_plain_desc(wei);
    const memory::desc src_any(src, f32, Tag::any), dst_any(dst, f32, Tag::any), wei_any(wei, f32, Tag::any);
    const auto algo = dnnl::algorithm::convolution_direct;
    dnnl::convolution_forward::primitive_desc fwd_pd(
        {dnnl::prop_kind::forward_training, algo, src_any, wei_any, dst_any, strides, dilates, pad_l, pad_r},
        impl->eng);
    dnnl::convolution_backward_data::primitive_desc data_pd(
        {algo, src_any, wei_any, dst_any, strides, dilates, pad_l, pad_r}, impl->eng, fwd_pd);
    dnnl::convolution_backward_weights::primitive_desc weights_pd(
        {algo, src_any, wei_any, dst_any, strides, dilates, pad_l, pad_r}, impl->eng, fwd_pd);
    impl->fwd = dnnl::convolution_forward(fwd_pd);
    impl->bwd_data = dnnl::convolution_backward_data(data_pd);
    impl->bwd_weights = dnnl::convolution_backward_weights(weights_pd);
    const bool scratch = true, own = false;
    impl->f_src.init(src_user, fwd_pd.src_desc(), impl->eng, scratch);
    impl->f_wei.init(wei_user, fwd_pd.weights_desc(), impl->eng, own);
    impl->f_dst.init(dst_user, fwd_pd.dst_desc(), impl->eng, scratch);
    impl->d_diff_dst.init(dst_user, data_pd.diff_dst_desc(), impl->eng, scratch);
    impl->d_wei.init(wei_user, data_pd.weights_desc(), impl->eng, own);
    impl->d_diff_src.init(src_user, data_pd.diff_src_desc(), impl->eng, scratch);
    impl->w_src.init(src_user, weights_pd.src_desc(), impl->eng, scratch);
    impl->w_diff_dst.init(dst_user, weights_pd.diff_dst_desc(), impl->eng, scratch);
    impl->w_diff_wei.init(wei_user, weights_pd.diff_weights_desc(), impl->eng, own);
    impl->same_diff_dst = data_pd.diff_dst_desc() == weights_pd.diff_dst_desc();
    return std::unique_ptr<DnnlConv>(new DnnlConv(std::move(impl)));
  } catch (const dnnl::error&) {
    return nullptr;  // no implementation for this configuration: the im2col engine runs it
  }
}

namespace {
// Runs `p` reading the memories a and b (an Operand's input: the user's array, reordered into the primitive's
// layout on the same stream) and writing the user array `out` (reordered back), then waits for the stream.
template <class Primitive>
void run(Primitive& p, dnnl::stream& s, int arg_a, const memory& a, int arg_b, const memory& b, int arg_out,
         Operand& out, float* pout) {
  p.execute(s, {{arg_a, a}, {arg_b, b}, {arg_out, out.output(pout)}});
  out.finish_output(s);
  s.wait();
}
}  // namespace

void DnnlConv::forward(const float* x, const float* w, float* y, uint64_t w_version) {
  Impl& m = *impl_;
  ThreadScope scope(m.threads);
  place_in_scratch({&m.f_src, &m.f_dst});
  run(m.fwd, m.stream, DNNL_ARG_SRC, m.f_src.input(x, m.stream), DNNL_ARG_WEIGHTS,
      m.f_wei.input_kept(w, w_version, m.stream), DNNL_ARG_DST, m.f_dst, y);
}

void DnnlConv::backward(const float* x, const float* w, const float* dy, float* dx, float* dw) {
  Impl& m = *impl_;
  ThreadScope scope(m.threads);
  place_in_scratch({&m.w_src, &m.w_diff_dst, &m.d_diff_dst, &m.d_diff_src});
  if (dw) {
    run(m.bwd_weights, m.stream, DNNL_ARG_SRC, m.w_src.input(x, m.stream), DNNL_ARG_DIFF_DST,
        m.w_diff_dst.input(dy, m.stream), DNNL_ARG_DIFF_WEIGHTS, m.w_diff_wei, dw);
  }
  if (!dx) return;
  // With dw, dy is already in the w_diff_dst copy when backward data wants the same layout.
  const memory& diff_dst = dw && m.same_diff_dst ? m.w_diff_dst.held() : m.d_diff_dst.input(dy, m.stream);
  run(m.bwd_data, m.stream, DNNL_ARG_DIFF_DST, diff_dst, DNNL_ARG_WEIGHTS, m.d_wei.input(w, m.stream),
      DNNL_ARG_DIFF_SRC, m.d_diff_src, dx);
}

}  // namespace nn::ops
