// Resolution of ONNX spatial padding (pads attribute, auto_pad SAME_UPPER/SAME_LOWER/VALID) for conv/pool.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "formats/onnx/import/import_context.hpp"

namespace nn::formats::onnx {

struct SpatialPads {
  std::vector<int64_t> begin, end;
  bool symmetric() const { return begin == end; }
  // nnabla Pad's pad_width for the last k axes: (b0, e0, b1, e1, ...).
  std::vector<int64_t> pad_width() const;
};

// in: spatial input sizes; kernel: effective window (dilation applied); the node's pads/auto_pad.
SpatialPads resolve_pads(const NodeView& node, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                         const std::vector<int64_t>& strides);

}  // namespace nn::formats::onnx
