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
  auto* dst = static_cast<char*>(data_in_place_for_write(y, whole.dst_place, whole.dst_layout));
  const char* zs =
      whole.residual ? static_cast<const char*>(data_in_place(*z, whole.dst_place, whole.dst_layout)) : nullptr;
  const size_t src_bytes = src_md.get_size(), dst_bytes = dst_md.get_size();  // one chunk's
  const memory bias = b ? memory(whole.bias_md, eng, const_cast<float*>(b->get<float>())) : memory();
  FirstException failure;  // none may leave the parallel loop
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int64_t i = 0; i < chunks; ++i) {
    const int t = omp_get_thread_num();
    char* d = dst + size_t(i) * dst_bytes;
    if (zs) std::memcpy(d, zs + size_t(i) * dst_bytes, dst_bytes);
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC, memory(src_md, eng, const_cast<char*>(src) + size_t(i) * src_bytes)},
        {DNNL_ARG_WEIGHTS, wei},
        {DNNL_ARG_DST, memory(dst_md, eng, d)}};
    if (b) args.emplace(DNNL_ARG_BIAS, bias);
    if (const size_t bytes = scratchpad_md.get_size())
      args.emplace(DNNL_ARG_SCRATCHPAD, memory(scratchpad_md, eng, thread_scratchpad(bytes)));
    failure.run([&] {
      fwd.execute(streams[size_t(t)], args);
      streams[size_t(t)].wait();
      if (activation_after)
        apply_activation_after(reinterpret_cast<float*>(d), int64_t(dst_bytes / sizeof(float)));
    });
  }
  failure.rethrow();
}

std::unique_ptr<ChunkedPrimitive> make_chunked(const Primitive& whole, const ConvGeometry& g, int64_t out_channels,
                                               int64_t group, int64_t batch, const ConvEpilogue& e, int threads) {
  if (whole.src_place == Place::kReordered || whole.dst_place == Place::kReordered) return nullptr;
  int64_t chunk = std::max<int64_t>(1, batch / (4 * threads));  // about 4 chunks per thread
  while (batch % chunk) --chunk;
  if (batch / chunk < 2 * threads) return nullptr;
  DnnlConvDims dims;
  if (!dnnl_conv_dims(g, out_channels, group, chunk, dims)) return nullptr;
  const memory::dims &src = dims.src, &dst = dims.dst, &wei = dims.wei;
  auto desc_of = [](Place place, const ArrayKey& layout, const memory::dims& d) {
    return place == Place::kPlain ? dnnl_plain_desc(d) : dnnl_layout_desc(layout.device, d);
  };
  ThreadScope scope(1);
  try {
    auto c = std::make_unique<ChunkedPrimitive>();
    c->threads = threads;
    c->chunks = batch / chunk;
    c->activation_after = activation_after(e, 1);
    c->src_md = desc_of(whole.src_place, whole.src_layout, src);
    c->dst_md = desc_of(whole.dst_place, whole.dst_layout, dst);
    if (c->src_md.get_size() * size_t(c->chunks) != whole.src_md.get_size() ||
        c->dst_md.get_size() * size_t(c->chunks) != whole.dst_md.get_size())
      return nullptr;
    const auto pd = inference_conv_desc(c->src_md, memory::desc(wei, kF32, Tag::any), whole.bias_md, c->dst_md,
                                        dims, e, /*threads=*/1, /*user_scratchpad=*/true);
    if (pd.weights_desc() != whole.wei_md) return nullptr;  // the whole primitive's weights are shared
    c->fwd = dnnl::convolution_forward(pd);
    c->scratchpad_md = pd.scratchpad_desc();
    for (int t = 0; t < threads; ++t) c->streams.emplace_back(c->eng);
    return c;
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

}  // namespace nn::ops
