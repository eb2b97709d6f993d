// Graph-gradient helper for broadcasting binary ops: sums a gradient back to an input's shape.
#pragma once
#include <algorithm>

#include "nn/graph/functions.hpp"

namespace nn::ops {

inline VariablePtr reduce_to(const VariablePtr& g, const Shape& shape) {
  if (g->shape() == shape) return g;
  const size_t nd = g->shape().size();
  Shape padded(nd, 1);
  std::copy(shape.begin(), shape.end(), padded.begin() + (nd - shape.size()));
  std::vector<int64_t> axes;
  for (size_t i = 0; i < nd; ++i)
    if (padded[i] == 1 && g->shape()[i] != 1) axes.push_back(int64_t(i));
  auto s = axes.empty() ? g : F::sum(g, axes, true);
  return F::reshape(s, shape);
}

}  // namespace nn::ops
