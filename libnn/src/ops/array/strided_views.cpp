// Strided-view ops: Slice, Transpose, Broadcast, BroadcastTo, Flip, Tile.
#include <algorithm>
#include <climits>

#include "ops/array/strided.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// An op whose output is a strided view of input `source_input()`; backward scatters the grad back.
class StridedViewFunction : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  virtual StridedView make_view(const Variables& in, Shape& out_shape) = 0;
  virtual int source_input() const { return 0; }

  void setup_impl(const Variables& in, const Variables& out) override {
    Shape out_shape;
    view_ = make_view(in, out_shape);
    out[0]->reshape(out_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    strided_gather(view_, in_data(in[source_input()]), out_data(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    for (size_t i = 0; i < in.size(); ++i) {
      if (!prop[i]) continue;
      float* dx = in_grad_zeroed(in[i], accum[i]);  // inputs other than the source get zero gradient
      if (int(i) == source_input()) strided_scatter_add(view_, out_grad(out[0]), dx);
    }
  }

  StridedView view_;
};

// The identity view of shape s (strides in C order).
StridedView identity_view(const Shape& s) { return {s, shape_strides(s), 0}; }

}  // namespace

StridedView transpose_view(const Attrs& attrs, const Shape& xs) {
  auto axes = attrs.get_ints("axes", {});
  NN_CHECK(axes.size() == xs.size()) << "Transpose: axes " << to_string(axes) << " must list each of the "
                                     << xs.size() << " axes of input " << to_string(xs);
  const Shape strides = shape_strides(xs);
  std::vector<bool> seen(xs.size(), false);
  StridedView v;
  for (int64_t a : axes) {
    int ax = normalize_axis(a, xs.size(), "Transpose: axis");
    NN_CHECK(!seen[ax]) << "Transpose: axes " << to_string(axes) << " repeat axis " << a;
    seen[ax] = true;
    v.shape.push_back(xs[ax]);
    v.stride.push_back(strides[ax]);
  }
  return v;
}

StridedView broadcast_view(const Attrs& attrs, const Shape& xs) {
  Shape shape = attrs.get_ints("shape", {});
  NN_CHECK(xs.empty() || xs.size() == shape.size())
      << "Broadcast: input " << to_string(xs) << " and shape " << to_string(shape)
      << " must have the same number of dimensions";
  check_shape(shape, "Broadcast: shape");
  const Shape strides = shape_strides(xs);
  StridedView v{shape, std::vector<int64_t>(shape.size(), 0), 0};
  for (size_t d = 0; d < xs.size(); ++d) {
    NN_CHECK(xs[d] == shape[d] || xs[d] == 1)
        << "Broadcast: dimension " << d << " of input " << to_string(xs) << " must be 1 or " << shape[d]
        << " (shape " << to_string(shape) << ")";
    v.stride[d] = xs[d] == shape[d] ? strides[d] : 0;
  }
  return v;
}

StridedView broadcast_to_view(const Attrs& attrs, const Shape& xs, const Shape& ys) {
  NN_CHECK(xs.size() >= ys.size()) << "BroadcastTo: y " << to_string(ys) << " has more dimensions than x "
                                   << to_string(xs);
  int64_t axis = attrs.get_int("axis");
  if (axis < 0) axis = int64_t(xs.size() - ys.size());
  NN_CHECK(axis + int64_t(ys.size()) <= int64_t(xs.size()) && (ys.empty() || axis < int64_t(xs.size())))
      << "BroadcastTo: axis " << axis << " does not fit y " << to_string(ys) << " into x " << to_string(xs);
  const Shape ystrides = shape_strides(ys);
  StridedView v{xs, std::vector<int64_t>(xs.size(), 0), 0};
  for (size_t i = 0; i < ys.size(); ++i) {
    NN_CHECK(xs[axis + i] == ys[i]) << "BroadcastTo: dimension " << axis + int64_t(i) << " of x " << to_string(xs)
                                    << " does not match dimension " << i << " of y " << to_string(ys);
    v.stride[axis + i] = ystrides[i];
  }
  return v;
}

StridedView flip_view(const Attrs& attrs, const Shape& xs) {
  NN_CHECK(!xs.empty()) << "Flip: input must have at least one dimension";
  auto axes = attrs.get_ints("axes", {int64_t(xs.size()) - 1});
  StridedView v = identity_view(xs);
  std::vector<bool> flipped(xs.size(), false);
  for (int64_t a : axes) flipped[normalize_axis(a, xs.size(), "Flip: axis")] = true;
  for (size_t d = 0; d < xs.size(); ++d) {
    if (!flipped[d] || xs[d] == 0) continue;
    v.base += (xs[d] - 1) * v.stride[d];
    v.stride[d] = -v.stride[d];
  }
  return v;
}

StridedView slice_view(const Attrs& attrs, const Shape& xs) {
  const int nd = int(xs.size());
  auto start = attrs.get_ints("start", {});
  auto stop = attrs.get_ints("stop", {});
  auto step = attrs.get_ints("step", {});
  if (!attrs.has("start")) start.assign(xs.size(), 0);
  if (!attrs.has("stop")) stop = xs;
  if (!attrs.has("step")) step.assign(xs.size(), 1);
  NN_CHECK(start.size() == stop.size() && start.size() == step.size() && int(start.size()) <= nd)
      << "Slice: start " << to_string(start) << ", stop " << to_string(stop) << " and step " << to_string(step)
      << " must have the same length, at most the rank of input " << to_string(xs);
  const size_t lead = xs.size() - start.size();
  start.insert(start.begin(), lead, 0);
  stop.insert(stop.begin(), xs.begin(), xs.begin() + lead);
  step.insert(step.begin(), lead, 1);
  constexpr int64_t kNone = INT_MAX;
  const Shape strides = shape_strides(xs);
  StridedView v;
  for (int d = 0; d < nd; ++d) {
    int64_t b = start[d], e = stop[d], s = step[d];
    NN_CHECK(s != 0) << "Slice: step of axis " << d << " must not be 0 (step " << to_string(step) << ")";
    if (s == kNone) s = 1;
    if (b < 0) b += xs[d];
    if (e < 0) e += xs[d];
    if (b == kNone) b = s > 0 ? 0 : xs[d] - 1;
    if (e == kNone) e = s > 0 ? xs[d] : -1;
    int64_t n = 0;
    if (s < 0 && b > e) n = (b - 1 - e) / -s + 1;
    if (s > 0 && b < e) n = std::max<int64_t>(0, (std::min(e, xs[d]) - 1 - b) / s + 1);  // start past the end: 0
    if (n > 0) {
      const int64_t last = b + (n - 1) * s;
      NN_CHECK(b >= 0 && b < xs[d] && last >= 0 && last < xs[d])
          << "Slice: axis " << d << " range start " << start[d] << " stop " << stop[d] << " step " << step[d]
          << " is outside input " << to_string(xs);
      v.base += b * strides[d];
    }
    v.shape.push_back(n);
    v.stride.push_back(s * strides[d]);
  }
  return v;
}

namespace {

class Transpose : public StridedViewFunction {
 public:
  using StridedViewFunction::StridedViewFunction;

 protected:
  StridedView make_view(const Variables& in, Shape& out_shape) override {
    StridedView v = transpose_view(attrs_, in[0]->shape());
    out_shape = v.shape;
    return v;
  }
};

class Broadcast : public StridedViewFunction {
 public:
  using StridedViewFunction::StridedViewFunction;

 protected:
  StridedView make_view(const Variables& in, Shape& out_shape) override {
    StridedView v = broadcast_view(attrs_, in[0]->shape());
    out_shape = v.shape;
    return v;
  }
};

// BroadcastTo(x, y): y is repeated to x's shape; y's dims match x's from `axis` (-1: x's trailing dims).
class BroadcastTo : public StridedViewFunction {
 public:
  using StridedViewFunction::StridedViewFunction;

 protected:
  int source_input() const override { return 1; }
  StridedView make_view(const Variables& in, Shape& out_shape) override {
    StridedView v = broadcast_to_view(attrs_, in[0]->shape(), in[1]->shape());
    out_shape = v.shape;
    return v;
  }
};

class Flip : public StridedViewFunction {
 public:
  using StridedViewFunction::StridedViewFunction;

 protected:
  StridedView make_view(const Variables& in, Shape& out_shape) override {
    StridedView v = flip_view(attrs_, in[0]->shape());
    out_shape = v.shape;
    return v;
  }
};

// Tile: numpy semantics; each output axis d is viewed as (reps[d], x.shape[d]) with stride (0, stride).
class Tile : public StridedViewFunction {
 public:
  using StridedViewFunction::StridedViewFunction;

 protected:
  StridedView make_view(const Variables& in, Shape& out_shape) override {
    Shape xs = in[0]->shape();
    auto reps = attrs_.get_ints("reps", {});
    for (int64_t r : reps) NN_CHECK(r >= 0) << "Tile: reps " << to_string(reps) << " must not be negative";
    while (reps.size() < xs.size()) reps.insert(reps.begin(), 1);
    while (xs.size() < reps.size()) xs.insert(xs.begin(), 1);
    const Shape strides = shape_strides(xs);
    StridedView v;
    out_shape.clear();
    for (size_t d = 0; d < xs.size(); ++d) {
      v.shape.insert(v.shape.end(), {reps[d], xs[d]});
      v.stride.insert(v.stride.end(), {0, strides[d]});
      out_shape.push_back(reps[d] * xs[d]);
    }
    return v;
  }
};

// Slice with nnabla semantics: start/stop/step cover the trailing axes; negative start/stop count from
// the end; INT_MAX stands for "None" (as nnabla's SLICE_NONE).
class Slice : public StridedViewFunction {
 public:
  using StridedViewFunction::StridedViewFunction;

 protected:
  StridedView make_view(const Variables& in, Shape& out_shape) override {
    StridedView v = slice_view(attrs_, in[0]->shape());
    out_shape = v.shape;
    return v;
  }
};

}  // namespace

void register_transpose(OpRegistry& r) {
  register_cpu<Transpose>(r, SchemaBuilder("Transpose", "Array Manipulation")
                                 .doc("permutes the axes")
                                 .in("x")
                                 .arg("axes", AttrType::kInts)
                                 .out("y")
                                 .build());
}

void register_broadcast(OpRegistry& r) {
  register_cpu<Broadcast>(r, SchemaBuilder("Broadcast", "Array Manipulation")
                                 .doc("repeats size-1 dimensions to the given shape")
                                 .in("x")
                                 .arg("shape", AttrType::kShape)
                                 .out("y")
                                 .build());
}

void register_broadcast_to(OpRegistry& r) {
  register_cpu<BroadcastTo>(r, SchemaBuilder("BroadcastTo", "Array Manipulation")
                                   .doc("repeats y to the shape of x, y's dims aligned at axis")
                                   .in("x")
                                   .in("y")
                                   .arg("axis", AttrType::kInt, AttrValue(int64_t(-1)))
                                   .out("z")
                                   .build());
}

void register_flip(OpRegistry& r) {
  register_cpu<Flip>(r, SchemaBuilder("Flip", "Array Manipulation")
                            .doc("reverses the order along axes")
                            .in("x")
                            .arg("axes", AttrType::kInts, std::nullopt, "[last axis]")
                            .out("y")
                            .build());
}

void register_tile(OpRegistry& r) {
  register_cpu<Tile>(r, SchemaBuilder("Tile", "Array Manipulation")
                            .doc("repeats the input reps times along each axis")
                            .in("x")
                            .arg("reps", AttrType::kInts)
                            .out("y")
                            .build());
}

void register_slice(OpRegistry& r) {
  register_cpu<Slice>(r, SchemaBuilder("Slice", "Array Manipulation")
                             .doc("x[start:stop:step] on the trailing axes")
                             .in("x")
                             .arg("start", AttrType::kInts, std::nullopt, "0s")
                             .arg("stop", AttrType::kInts, std::nullopt, "x.shape")
                             .arg("step", AttrType::kInts, std::nullopt, "1s")
                             .out("y")
                             .build());
}

}  // namespace nn::ops
