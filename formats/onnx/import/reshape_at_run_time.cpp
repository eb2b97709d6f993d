// Squeeze, Unsqueeze, Flatten and Reshape inside sub-graphs: output shapes read from the input's shape when it
// runs.
#include <algorithm>

#include "formats/onnx/import/op_rules.hpp"

namespace nn::formats::onnx {

bool shape_follows_run(const ImportContext& ctx, const std::string& x) {
  return ctx.shapes_at_run_time() && !ctx.is_constant(x) && ctx.rank(x) > 0;
}

std::string reshape_following_input(ImportContext& ctx, const std::string& x, const std::vector<DimRange>& dims,
                                    const std::string& output) {
  const auto copies = [](const DimRange& d) { return d.end > d.begin; };
  if (std::count_if(dims.begin(), dims.end(), copies) <= 1) {
    // One dim read from the input at most: Reshape infers it (-1) from the input's size each time that changes.
    std::vector<int64_t> shape;
    for (const DimRange& d : dims) shape.push_back(copies(d) ? -1 : 1);
    return ctx.emit1("Reshape", {x}, {{"shape", shape}}, output);
  }
  // Else the target shape is computed when it runs: Shape of runs of the input's dims (a product where an output
  // dim takes several), 1s between them, given to ONNXReshape.
  const int64_t rank = ctx.rank(x);
  const auto shape_of = [&](int64_t begin, int64_t end) {
    return ctx.emit1("Shape", {x}, {{"start", begin}, {"end", end == rank ? int64_t(0) : end}});
  };
  std::vector<std::string> parts;
  std::vector<float> ones;
  const auto flush_ones = [&] {
    if (!ones.empty()) parts.push_back(ctx.constant({int64_t(ones.size())}, ones));
    ones.clear();
  };
  for (size_t i = 0; i < dims.size(); ++i) {
    const DimRange& d = dims[i];
    if (!copies(d)) {
      ones.push_back(1.f);
      continue;
    }
    flush_ones();
    if (d.end - d.begin > 1) {
      parts.push_back(
          ctx.emit1("Prod", {shape_of(d.begin, d.end)}, {{"axes", std::vector<int64_t>{0}}, {"keep_dims", true}}));
      continue;
    }
    int64_t end = d.end;  // consecutive copied dims: one Shape
    while (i + 1 < dims.size() && dims[i + 1].begin == end && dims[i + 1].end == end + 1) ++i, ++end;
    parts.push_back(shape_of(d.begin, end));
  }
  flush_ones();
  const std::string shape = parts.size() == 1 ? parts[0] : ctx.emit1("Concatenate", parts, {{"axis", int64_t(0)}});
  return ctx.emit1("ONNXReshape", {x, shape}, {{"allowzero", true}}, output);  // its 0s are lengths
}

}  // namespace nn::formats::onnx
