// Affine on raw arrays (x flattened at base_axis times W (inputs, outputs...) plus b), shared by Affine and
// the binary affine layers.
#pragma once
#include <string>

#include "nn/core/shape.hpp"

namespace nn::ops {

struct AffinePlan {
  int64_t rows = 0, inputs = 0, outputs = 0;
  Shape y_shape;
};
// Checks x/w/b shapes (b may be null) naming `fn`; y shape is x.shape[:base_axis] + w.shape[1:].
AffinePlan plan_affine(const std::string& fn, const Shape& x, const Shape& w, const Shape* b, int64_t base_axis);
void affine_forward(const AffinePlan& p, const float* x, const float* w, const float* b, float* y);
// Null gradient pointers are skipped; each is overwritten, or added to when its accum flag is set.
void affine_backward(const AffinePlan& p, const float* x, const float* w, const float* dy, float* dx, bool accum_x,
                     float* dw, bool accum_w, float* db, bool accum_b);

}  // namespace nn::ops
