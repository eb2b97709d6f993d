// plan_pooling and unpooling_kernel: argument checks, output shape and per-axis window tables for the pooling
// functions.
#include "ops/pooling/pooling_common.hpp"

#include <algorithm>

#include "nn/core/error.hpp"

namespace nn::ops {

Shape unpooling_kernel(const Shape& x, const Attrs& attrs) {
  NN_CHECK(!attrs.get_bool("channel_last"))
      << "Unpooling: channel_last=true is not supported on CPU (input " << to_string(x) << ")";
  Shape kernel = attrs.get_ints("kernel", {});
  NN_CHECK(!kernel.empty() && kernel.size() <= x.size())
      << "Unpooling: kernel " << to_string(kernel) << " does not fit input " << to_string(x);
  for (int64_t k : kernel) NN_CHECK(k >= 1) << "Unpooling: kernel " << to_string(kernel) << " must be >= 1";
  return kernel;
}

PoolPlan plan_pooling(const std::string& fn, const Shape& x, const Attrs& attrs) {
  NN_CHECK(!attrs.get_bool("channel_last"))
      << fn << ": channel_last=true is not supported on CPU (input " << to_string(x) << ")";
  PoolPlan p;
  p.kernel = attrs.get_ints("kernel", {});  // required: an absent kernel is refused below
  const size_t nd = p.kernel.size();
  NN_CHECK(nd >= 1 && nd <= x.size() && nd <= kMaxPoolAxes)
      << fn << ": kernel " << to_string(p.kernel) << " must have between 1 and ndim entries for input "
      << to_string(x);
  p.stride = attrs.get_shape_or("stride", p.kernel);
  if (p.stride.empty()) p.stride = p.kernel;
  p.pad = attrs.get_shape_or("pad", Shape(nd, 0));
  const bool ignore_border = attrs.get_bool("ignore_border");
  NN_CHECK(p.stride.size() == nd && p.pad.size() == nd)
      << fn << ": kernel " << to_string(p.kernel) << ", stride " << to_string(p.stride) << " and pad "
      << to_string(p.pad) << " must have the same length";
  const size_t first = x.size() - nd;
  p.in.assign(x.begin() + first, x.end());
  p.maps = shape_size(x, 0, first);
  p.y_shape.assign(x.begin(), x.begin() + first);
  p.lo.resize(nd);
  p.hi.resize(nd);
  p.padded_len.resize(nd);
  for (size_t d = 0; d < nd; ++d) {
    const int64_t w = p.in[d], k = p.kernel[d], s = p.stride[d], pad = p.pad[d];
    NN_CHECK(k >= 1 && s >= 1 && pad >= 0) << fn << ": kernel " << to_string(p.kernel) << ", stride "
                                           << to_string(p.stride) << ", pad " << to_string(p.pad) << " invalid";
    // C++ division truncates toward zero, as upstream's int arithmetic does.
    const int64_t o = (w + pad - (ignore_border ? k - pad : 1)) / s + 1;
    NN_CHECK(o > 0) << fn << ": input " << to_string(x) << " is too small for kernel " << to_string(p.kernel)
                    << " with pad " << to_string(p.pad);
    p.out.push_back(o);
    p.y_shape.push_back(o);
    for (int64_t i = 0; i < o; ++i) {
      const int64_t start = i * s - pad;
      const int64_t end = std::min(start + k, w + pad);
      p.padded_len[d].push_back(end - start);
      p.lo[d].push_back(std::max<int64_t>(start, 0));
      p.hi[d].push_back(std::max(std::min(end, w), std::max<int64_t>(start, 0)));
    }
  }
  p.in_size = shape_size(p.in);
  p.out_size = shape_size(p.out);
  return p;
}

}  // namespace nn::ops
