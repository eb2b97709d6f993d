// The chunked inference convolution (conv_dnnl_primitive.hpp): one-thread primitives over chunks of the batch
// that the team's threads take in turn, so a thread the scheduler has not run delays only its own chunk.
#include <omp.h>

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "nn/core/first_exception.hpp"
#include "ops/detail/thread_scope.hpp"
#include "ops/nn_layer/conv_dnnl_primitive.hpp"

namespace nn::ops {
namespace {
using dnnl::memory;
using Tag = memory::format_tag;
constexpr auto kF32 = memory::data_type::f32;

// The calling thread's scratchpad for one primitive execution, shared by every chunked convolution and grown
// to the largest asked for (one buffer per thread, as oneDNN's own library-managed scratchpad).
void* thread_scratchpad(size_t bytes) {
  constexpr size_t kAlign = 64;  // oneDNN's kernels use aligned vector loads on scratchpad buffers
  thread_local std::vector<char> buffer;
  if (buffer.size() < bytes + kAlign) buffer.resize(bytes + kAlign);
  const uintptr_t p = reinterpret_cast<uintptr_t>(buffer.data());
  return reinterpret_cast<void*>((p + kAlign - 1) / kAlign * kAlign);
}
}  // namespace

void ChunkedPrimitive::forward(Primitive& whole, NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y) {
  auto* src = static_cast<const char*>(data_in_place(x, whole.src_place, whole.src_layout));
  const memory wei = whole.weights(w);
  const ResidualDestination out =
      residual_destination(whole.residual ? z : nullptr, y, whole.dst_place, whole.dst_layout);
  auto* dst = static_cast<char*>(out.dst);
  const auto* zs = static_cast<const char*>(out.z_to_copy);  // copied part by part, by the thread that sums
  const memory bias = b ? memory(whole.bias_md, eng, const_cast<float*>(b->get<float>())) : memory();
  FirstException failure;  // none may leave the parallel loop
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (size_t i = 0; i < parts.size(); ++i) {
    const int t = omp_get_thread_num();
    const Part& part = parts[i];
    const Kernel& k = kernels[part.kernel];
    char* d = dst + part.dst_offset;
    const size_t dst_bytes = k.dst_md.get_size();
    if (zs) std::memcpy(d, zs + part.dst_offset, dst_bytes);
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC, memory(k.src_md, eng, const_cast<char*>(src) + part.src_offset)},
        {DNNL_ARG_WEIGHTS, wei},
        {DNNL_ARG_DST, memory(k.dst_md, eng, d)}};
    if (b) args.emplace(DNNL_ARG_BIAS, bias);
    if (const size_t bytes = k.scratchpad_md.get_size())
      args.emplace(DNNL_ARG_SCRATCHPAD, memory(k.scratchpad_md, eng, thread_scratchpad(bytes)));
    failure.run([&] {
      k.fwd.execute(streams[size_t(t)], args);
      streams[size_t(t)].wait();
      if (activation_after)
        apply_activation_after(reinterpret_cast<float*>(d), int64_t(dst_bytes / sizeof(float)));
    });
  }
  failure.rethrow();
}

namespace {

// The one-thread kernel of `dims` over the whole's layouts, or false when its weights layout differs from the
// whole primitive's (whose reordered weights every part reads).
bool add_kernel(ChunkedPrimitive& c, const Primitive& whole, const DnnlConvDims& dims, const ConvEpilogue& e) {
  auto desc_of = [](Place place, const ArrayKey& layout, const memory::dims& d) {
    return place == Place::kPlain ? dnnl_plain_desc(d) : dnnl_layout_desc(layout.device, d);
  };
  ChunkedPrimitive::Kernel k;
  k.src_md = desc_of(whole.src_place, whole.src_layout, dims.src);
  k.dst_md = desc_of(whole.dst_place, whole.dst_layout, dims.dst);
  const auto pd = inference_conv_desc(k.src_md, memory::desc(dims.wei, kF32, Tag::any), whole.bias_md, k.dst_md,
                                      dims, e, /*threads=*/1, /*user_scratchpad=*/true);
  if (pd.weights_desc() != whole.wei_md) return false;
  k.fwd = dnnl::convolution_forward(pd);
  k.scratchpad_md = pd.scratchpad_desc();
  c.kernels.push_back(std::move(k));
  return true;
}

// About 4 chunks of the batch per thread, each of `chunk` images.
bool split_batch(ChunkedPrimitive& c, const Primitive& whole, const DnnlConvDims& whole_dims, int64_t batch,
                 const ConvEpilogue& e) {
  int64_t chunk = std::max<int64_t>(1, batch / (4 * c.threads));
  while (batch % chunk) --chunk;
  const int64_t chunks = batch / chunk;
  if (chunks < 2 * c.threads) return false;
  DnnlConvDims dims = whole_dims;
  dims.src[0] = dims.dst[0] = chunk;
  if (!add_kernel(c, whole, dims, e)) return false;
  const auto& k = c.kernels.back();
  if (k.src_md.get_size() * size_t(chunks) != whole.src_md.get_size() ||
      k.dst_md.get_size() * size_t(chunks) != whole.dst_md.get_size())
    return false;
  for (int64_t i = 0; i < chunks; ++i)
    c.parts.push_back({0, size_t(i) * k.src_md.get_size(), size_t(i) * k.dst_md.get_size()});
  return true;
}

// One band of output rows per thread, for one channels-last image of two spatial axes: each band reads the
// input rows its windows cover, with the whole's padding at the image's top and bottom only. Measured on
// EfficientNet's swish layers, two threads: 1x1 16 -> 96 channels over 112x112 0.218 -> 0.188 ms, depthwise
// 144 channels over 56x56 0.110 -> 0.095 (the post-op's swish across the team's output against swish_array
// over each band). Without an activation after, bands ran no faster than the team primitive, and more bands
// per thread slower.
bool split_rows(ChunkedPrimitive& c, const Primitive& whole, const DnnlConvDims& whole_dims, int64_t batch,
                const ConvEpilogue& e) {
  const auto& d = whole_dims;
  const bool channels_last = whole.src_place == Place::kLayout && whole.src_layout.device == kChannelsLastLayout &&
                             whole.dst_place == Place::kLayout && whole.dst_layout.device == kChannelsLastLayout;
  const int64_t out_rows = d.dst.size() == 4 ? d.dst[2] : 0;
  if (batch != 1 || !channels_last || !c.activation_after || out_rows < 2 * c.threads) return false;
  const int64_t in_rows = d.src[2], extent = (d.wei[d.wei.size() - 2] - 1) * (d.dilates[0] + 1) + 1;
  const size_t src_row_bytes = size_t(d.src[1] * d.src[3]) * sizeof(float);
  const size_t dst_row_bytes = size_t(d.dst[1] * d.dst[3]) * sizeof(float);
  for (int t = 0; t < c.threads; ++t) {
    const int64_t o0 = out_rows * t / c.threads, o1 = out_rows * (t + 1) / c.threads;
    const int64_t first = o0 * d.strides[0] - d.pad_l[0];  // the band's first window row (may be padding)
    const int64_t end = (o1 - 1) * d.strides[0] - d.pad_l[0] + extent;
    const int64_t r0 = std::max<int64_t>(first, 0), r1 = std::min(end, in_rows);
    DnnlConvDims band = d;
    band.src[2] = r1 - r0;
    band.dst[2] = o1 - o0;
    band.pad_l[0] = r0 - first;
    band.pad_r[0] = end - r1;
    if (!add_kernel(c, whole, band, e)) return false;
    c.parts.push_back({c.kernels.size() - 1, size_t(r0) * src_row_bytes, size_t(o0) * dst_row_bytes});
  }
  return true;
}

}  // namespace

std::unique_ptr<ChunkedPrimitive> make_chunked(const Primitive& whole, const ConvGeometry& g, int64_t out_channels,
                                               int64_t group, int64_t batch, const ConvEpilogue& e, int threads) {
  if (whole.src_place == Place::kReordered || whole.dst_place == Place::kReordered) return nullptr;
  DnnlConvDims dims;
  if (!dnnl_conv_dims(g, out_channels, group, batch, dims)) return nullptr;
  ThreadScope scope(1);
  try {
    auto c = std::make_unique<ChunkedPrimitive>();
    c->threads = threads;
    c->activation_after = activation_after(e, 1);
    if (!split_batch(*c, whole, dims, batch, e) && !split_rows(*c, whole, dims, batch, e)) return nullptr;
    for (int t = 0; t < threads; ++t) c->streams.emplace_back(c->eng);
    return c;
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

}  // namespace nn::ops
