// Host layouts of oneDNN's convolutions, so a chain of convolutions keeps one instead of reordering around
// each: "dnnl16", channels blocked by 16 (N, C/16, spatial..., 16), which its direct AVX-512 kernels use,
// and "dnnl_nxc", channels last (N, spatial..., C), which its brgemm kernels use.
#pragma once
#include <oneapi/dnnl/dnnl.hpp>

#include <string>

#include "ops/detail/channels_last_view.hpp"

namespace nn::ops {

inline constexpr const char* kDnnlLayouts[] = {"dnnl16", kChannelsLastLayout};

// The CPU engine every inference primitive and layout reorder uses (memory is tied to its engine).
const dnnl::engine& dnnl_cpu_engine();
// The descriptor of a row-major float32 array of `dims` (1 to 6 axes): nncli's own arrays as oneDNN sees them.
dnnl::memory::desc dnnl_plain_desc(const dnnl::memory::dims& dims);
// The memory descriptor of a (batch, channels, 1 to 3 spatial axes) array of `dims` in `layout`.
dnnl::memory::desc dnnl_layout_desc(const std::string& layout, const dnnl::memory::dims& dims);
// The layout of kDnnlLayouts that `md` is, or "" when it is none of them.
std::string dnnl_layout_of(const dnnl::memory::desc& md);
// Registers the layouts with NdArray (once; later calls do nothing).
void register_dnnl_layouts();

}  // namespace nn::ops
