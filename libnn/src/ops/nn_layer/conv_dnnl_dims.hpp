// A convolution geometry in oneDNN's terms, shared by the training primitives (conv_dnnl.cpp) and the
// inference ones (conv_dnnl_infer.cpp).
#pragma once
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>

#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {

struct DnnlConvDims {
  dnnl::memory::dims src, dst, wei, strides, dilates, pad_l, pad_r;
};

// False when oneDNN cannot take it (not 1 to 3 spatial axes, no batch or group).
inline bool dnnl_conv_dims(const ConvGeometry& g, int64_t out_channels, int64_t group, int64_t batch,
                           DnnlConvDims& d) {
  const size_t spatial = g.in.size();
  if (spatial < 1 || spatial > 3 || batch < 1 || group < 1) return false;
  d.src = {batch, g.channels};
  d.dst = {batch, out_channels};
  if (group > 1)
    d.wei = {group, out_channels / group, g.channels / group};
  else
    d.wei = {out_channels, g.channels};
  for (size_t i = 0; i < spatial; ++i) {
    d.src.push_back(g.in[i]);
    d.dst.push_back(g.out[i]);
    d.wei.push_back(g.kernel[i]);
    d.strides.push_back(g.stride[i]);
    d.dilates.push_back(g.dilation[i] - 1);
    d.pad_l.push_back(g.pad[i]);
    // nnabla's output size floors: the right padding is what remains after the last window, none when the
    // last window ends before the input does (a stride-2 layer leaving the last column unread).
    const int64_t right =
        (g.out[i] - 1) * g.stride[i] + g.dilation[i] * (g.kernel[i] - 1) + 1 - g.in[i] - g.pad[i];
    d.pad_r.push_back(std::max<int64_t>(right, 0));
  }
  return true;
}

}  // namespace nn::ops
