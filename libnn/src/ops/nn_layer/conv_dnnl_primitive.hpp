// The oneDNN primitives behind InferenceConv (conv_dnnl_infer.cpp): a whole-batch forward_inference
// convolution with bias and post-ops for one team size, and its chunked twin that splits the batch among the
// team's threads. Operands are read and written in place when their layout is plain or one NdArray holds.
#pragma once
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "nn/core/ndarray.hpp"
#include "ops/detail/dnnl_layout.hpp"
#include "ops/nn_layer/conv_dnnl_dims.hpp"
#include "ops/nn_layer/conv_infer.hpp"

namespace nn::ops {

// Where an activation operand lives for the primitive: in the array's plain copy, in its copy of one of
// the oneDNN layouts, or in the primitive's own buffer reordered from and to the plain copy.
enum class Place { kPlain, kLayout, kReordered };

Place place_of(const dnnl::memory::desc& want, const dnnl::memory::desc& plain, ArrayKey& layout_key);
// An operand's data where the primitive reads or writes it in place (kPlain: the plain copy; kLayout: the
// copy in `layout`, synced or allocated by NdArray).
const void* data_in_place(NdArray& a, Place place, const ArrayKey& layout);
void* data_in_place_for_write(NdArray& a, Place place, const ArrayKey& layout);

// The output y where the primitive writes it in place, and the residual z's data to copy there before the sum
// post-op reads it (null without a residual, or when y took z's array: FusedConvolution::forward_in_place).
// z is read first, so that when y is z's array its data is already in the layout y is written in.
struct ResidualDestination {
  void* dst;
  const void* z_to_copy;
};
ResidualDestination residual_destination(NdArray* z, NdArray& y, Place place, const ArrayKey& layout);

// The forward_inference convolution of `d` over these descriptors (`any` lets oneDNN choose) with e's bias,
// residual sum and activation (unless it runs after the primitive), for a team of `threads`; `user_scratchpad`
// when calls may run concurrently.
dnnl::convolution_forward::primitive_desc inference_conv_desc(const dnnl::memory::desc& src,
                                                              const dnnl::memory::desc& wei,
                                                              const dnnl::memory::desc& bias,
                                                              const dnnl::memory::desc& dst, const DnnlConvDims& d,
                                                              const ConvEpilogue& e, int threads,
                                                              bool user_scratchpad = false);

// Whether e's activation runs after a primitive of `threads` threads, over its output in place on the same
// thread (apply_activation_after), rather than as a oneDNN post-op. oneDNN's swish took longer than the
// convolution itself (EfficientNet's depthwise 32-channel 112x112 layer, one thread: 0.066 ms, 0.173 with the
// swish post-op, 0.10 with swish_array after). A team's threads would read each other's output (oneDNN splits
// the work its own way): there the post-op stays.
bool activation_after(const ConvEpilogue& e, int threads);
// That activation over n floats of a primitive's output.
void apply_activation_after(float* y, int64_t n);

// Weights reordered into the layout a primitive wants, redone only when their content changes; every
// primitive that reads the same weights array in that layout shares one copy (conv_dnnl_primitive.cpp).
struct ReorderedWeights {
  dnnl::memory weights;
  dnnl::reorder from_user;
  uint64_t version = 0;  // the content they came from (0: none yet)
  std::mutex mutex;      // chunks of a batch may read the copy from several threads
};

// One primitive made for one team size (oneDNN fixes the split of the work when it makes it).
class Primitive {
 public:
  dnnl::engine eng = dnnl_cpu_engine();  // shared, so the primitives of a convolution can share memory
  dnnl::stream stream{eng};
  dnnl::convolution_forward fwd;
  dnnl::memory::desc src_md, wei_md, dst_md, src_plain, dst_plain, wei_user, bias_md;
  Place src_place = Place::kPlain, dst_place = Place::kPlain;
  ArrayKey src_layout, dst_layout;        // the NdArray copy read or written in place (Place::kLayout)
  dnnl::reorder src_in, dst_in, dst_out;  // plain -> the primitive's src / dst, its dst -> plain
  dnnl::memory src_tmp, dst_tmp;
  bool reorders_weights = false;                // false: the primitive reads the weights as given
  std::shared_ptr<ReorderedWeights> reordered;  // the shared copy, found at the first call
  bool residual = false;
  bool activation_after = false;  // the activation runs after the primitive (see activation_after)
  int threads = 1;

  void forward(NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y);
  // The weights as the primitive reads them: reordered again only when their content changed.
  dnnl::memory weights(NdArray& w);
};

std::unique_ptr<Primitive> make_primitive(const ConvGeometry& g, int64_t out_channels, int64_t group,
                                          int64_t batch, const ConvEpilogue& e, int threads);

// The convolution of a team primitive run as one-thread primitives over parts of the output, which the team's
// threads take in turn (dynamic schedule): chunks of the batch, or at batch 1 bands of output rows when the
// activation runs after the primitive (each thread then applies it to the band it just wrote, in its own cache).
// A thread the scheduler has not run delays only the part it holds, where a team primitive's static split waits
// for it at every barrier. Each part's operands are the whole arrays' at the part's offset.
class ChunkedPrimitive {
 public:
  struct Kernel {  // a one-thread primitive for one shape of part
    dnnl::convolution_forward fwd;
    dnnl::memory::desc src_md, dst_md;
    dnnl::memory::desc scratchpad_md;  // user-managed (parts run concurrently): each thread's own buffer
  };
  struct Part {
    size_t kernel = 0;
    size_t src_offset = 0, dst_offset = 0;  // bytes into the whole operands
  };
  dnnl::engine eng = dnnl_cpu_engine();
  std::vector<Kernel> kernels;
  std::vector<Part> parts;
  int threads = 1;
  bool activation_after = false;
  std::vector<dnnl::stream> streams;  // one per thread

  // y = the convolution of `whole` (whose weights, places and layouts these parts share), part by part.
  void forward(Primitive& whole, NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y);
};

// A chunked twin of `whole` (a team primitive over `batch`) for `threads` threads, or null when its operands
// need reorders, neither the batch nor (at batch 1) the rows split, or oneDNN has no one-thread kernel with
// the same layouts.
std::unique_ptr<ChunkedPrimitive> make_chunked(const Primitive& whole, const ConvGeometry& g, int64_t out_channels,
                                               int64_t group, int64_t batch, const ConvEpilogue& e, int threads);

}  // namespace nn::ops
