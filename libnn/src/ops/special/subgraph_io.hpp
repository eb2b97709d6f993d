// Moving values in and out of the graphs that Loop and If run (Function::set_subgraphs).
#pragma once
#include <algorithm>
#include <vector>

#include "nn/core/error.hpp"
#include "nn/graph/variable.hpp"

namespace nn::ops {

// Gives a sub-graph input `dst` the shape and values of `src` (a copy: the sub-graph may run again before `src`
// is read). A sub-graph that never reads the input has none (nullptr).
inline void feed(const VariablePtr& dst, const Shape& shape, const float* src) {
  if (!dst) return;
  dst->reshape(shape, true);
  std::copy(src, src + dst->size(), dst->data()->cast<float>(true));
}
inline void feed(const VariablePtr& dst, Variable* src) { feed(dst, src->shape(), src->data()->get<float>()); }
// A one-value input (Loop's iteration number and condition) keeps the shape the graph declares for it.
inline void feed_scalar(const VariablePtr& dst, float value) {
  if (dst) dst->data()->cast<float>(true)[0] = value;
}

// The shapes a sub-graph's outputs take for its inputs' current shapes (set up again where they changed).
inline void setup_subgraph(const std::vector<VariablePtr>& outputs) { setup_changed(outputs); }

// As setup_subgraph, running the graph on its inputs' current values where it can (shapes that follow values, such
// as a ConstantOfShape of a Shape, need the values computed before them).
inline void run_or_setup(const std::vector<VariablePtr>& outputs) {
  try {
    forward_all(outputs, /*clear_buffer=*/true);
  } catch (const Error&) {
    setup_subgraph(outputs);
  }
}

// Gives output `dst` the shape and values of a sub-graph output.
inline void take(Variable* dst, const VariablePtr& src) {
  dst->reshape(src->shape(), true);
  const float* s = src->data()->get<float>();
  std::copy(s, s + src->size(), dst->data()->cast<float>(true));
}

}  // namespace nn::ops
