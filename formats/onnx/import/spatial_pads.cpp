// ONNX auto_pad / pads resolution shared by Conv and the pooling operators.
#include "formats/onnx/import/spatial_pads.hpp"

#include "nn/core/error.hpp"

namespace nn::formats::onnx {

std::vector<int64_t> SpatialPads::pad_width() const {
  std::vector<int64_t> w;
  for (size_t i = 0; i < begin.size(); ++i) {
    w.push_back(begin[i]);
    w.push_back(end[i]);
  }
  return w;
}

SpatialPads resolve_pads(const NodeView& node, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                         const std::vector<int64_t>& strides) {
  const size_t k = in.size();
  SpatialPads p{std::vector<int64_t>(k, 0), std::vector<int64_t>(k, 0)};
  const std::string auto_pad = node.get_string("auto_pad", "NOTSET");
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (size_t i = 0; i < k; ++i) {
      const int64_t out = (in[i] + strides[i] - 1) / strides[i];
      const int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + kernel[i] - in[i]);
      const int64_t small = total / 2;
      p.begin[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      p.end[i] = total - p.begin[i];
    }
    return p;
  }
  NN_CHECK_CODE(auto_pad == "NOTSET" || auto_pad == "VALID" || auto_pad.empty(), ErrorCode::kUnsupported)
      << "auto_pad " << auto_pad << " is not supported";
  if (auto_pad == "VALID") return p;
  const std::vector<int64_t> pads = node.get_ints("pads", std::vector<int64_t>(2 * k, 0));
  NN_CHECK(pads.size() == 2 * k) << "pads has " << pads.size() << " values, expected " << 2 * k;
  for (size_t i = 0; i < k; ++i) {
    p.begin[i] = pads[i];
    p.end[i] = pads[k + i];
    NN_CHECK_CODE(p.begin[i] >= 0 && p.end[i] >= 0, ErrorCode::kUnsupported) << "negative pads are not supported";
  }
  return p;
}

}  // namespace nn::formats::onnx
