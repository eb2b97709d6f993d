// Joining and splitting along an axis (Concatenate, Stack, Split): block copies over an (outer, axis, inner)
// view of the arrays.
#include <algorithm>
#include <vector>

#include "ops/array/array_args.hpp"
#include "ops/detail/channels_last_view.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Copies `count` blocks of `len` floats from src (block stride src_stride) to dst (dst_stride).
void copy_blocks(const float* src, int64_t src_stride, float* dst, int64_t dst_stride, int64_t count, int64_t len,
                 bool add) {
  for (int64_t o = 0; o < count; ++o) {
    const float* s = src + o * src_stride;
    float* d = dst + o * dst_stride;
    if (add) {
      for (int64_t i = 0; i < len; ++i) d[i] += s[i];
    } else {
      std::copy(s, s + len, d);
    }
  }
}

class Concatenate : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(!in.empty()) << "Concatenate needs at least one input";
    const Shape& s0 = in[0]->shape();
    NN_CHECK(!s0.empty()) << "Concatenate: inputs must have at least one dimension";
    axis_ = concat_axis(attrs_, s0);
    Shape out_shape = s0;
    out_shape[axis_] = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      const Shape& s = in[i]->shape();
      bool ok = s.size() == s0.size();
      for (size_t d = 0; ok && d < s.size(); ++d) ok = int(d) == axis_ || s[d] == s0[d];
      NN_CHECK(ok) << "Concatenate: input " << i << " " << to_string(s) << " does not match input 0 "
                   << to_string(s0) << " outside axis " << axis_;
      out_shape[axis_] += s[axis_];
    }
    outer_ = shape_size(s0, 0, axis_);
    inner_ = shape_size(s0, axis_ + 1, s0.size());
    out[0]->reshape(out_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    if (forward_channels_last(in, out)) return;
    float* y = out_data(out[0]);
    const int64_t out_block = out[0]->shape()[axis_] * inner_;
    int64_t offset = 0;
    for (auto* v : in) {
      const int64_t block = v->shape()[axis_] * inner_;
      copy_blocks(in_data(v), block, y + offset, out_block, outer_, block, false);
      offset += block;
    }
  }
  // Channel concatenation where a convolution left inputs channels-last: each pixel's channels side by side, the
  // output channels-last. Inputs held in the plain layout are read there (DenseNet's concatenations hold their
  // block's first map, a pooling output, beside the convolutions' maps: all of them went back to the plain layout
  // for it, and to channels-last again for the next convolution).
  bool forward_channels_last(const Variables& in, const Variables& out) {
    if (axis_ != 1 || out[0]->shape().size() != 4) return false;
    bool any = false;
    for (auto* v : in) any = any || held_channels_last(*v->data());
    if (!any) return false;
    const Shape& ys = out[0]->shape();
    const int64_t map = ys[2] * ys[3], pixels = ys[0] * map, channels = ys[1];
    float* y = static_cast<float*>(out[0]->data()->cast_raw(channels_last_key(), true));
    std::vector<const float*> xs;
    std::vector<bool> plain;
    for (auto* v : in) {
      plain.push_back(!held_channels_last(*v->data()));
      xs.push_back(plain.back() ? in_data(v) : static_cast<const float*>(v->data()->get_raw(channels_last_key())));
    }
    // One range of pixels per thread, each writing its output pixels whole (the copy is bandwidth-bound:
    // SqueezeNet's eight concatenations move ~370 MB per batch of 32).
    parallel_ranges(pixels, pixels * channels, [&](int64_t begin, int64_t end, int) {
      int64_t offset = 0;
      for (size_t i = 0; i < in.size(); ++i) {
        const int64_t c = in[i]->shape()[1];
        if (!plain[i]) {
          for (int64_t q = begin; q < end; ++q) copy_channels(xs[i] + q * c, y + q * channels + offset, c);
        } else {  // (N, C, H, W): channel k of pixel q = (n, p) at (n * c + k) * map + p
          for (int64_t q = begin; q < end; ++q) {
            const float* src = xs[i] + (q / map) * c * map + q % map;
            float* dst = y + q * channels + offset;
            for (int64_t k = 0; k < c; ++k) dst[k] = src[k * map];
          }
        }
        offset += c;
      }
    });
    return true;
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    const int64_t out_block = out[0]->shape()[axis_] * inner_;
    int64_t offset = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      const int64_t block = in[i]->shape()[axis_] * inner_;
      if (prop[i]) copy_blocks(dy + offset, out_block, in_grad(in[i], accum[i]), block, outer_, block, accum[i]);
      offset += block;
    }
  }

 private:
  int axis_ = 0;
  int64_t outer_ = 1, inner_ = 1;
};

// Split: one output per index along axis, each without that axis.
class Split : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }
  int num_outputs(const std::vector<Shape>& input_shapes) const override {
    NN_CHECK(input_shapes.size() == 1 && !input_shapes[0].empty()) << "Split: needs one input with a dimension";
    const Shape& s = input_shapes[0];
    return int(s[split_axis(attrs_, s)]);
  }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    NN_CHECK(!xs.empty()) << "Split: input must have at least one dimension";
    axis_ = split_axis(attrs_, xs);
    NN_CHECK(int64_t(out.size()) == xs[axis_])
        << "Split: input " << to_string(xs) << " has " << xs[axis_] << " entries on axis " << axis_ << " but "
        << out.size() << " outputs were given";
    Shape ys = xs;
    ys.erase(ys.begin() + axis_);
    outer_ = shape_size(xs, 0, axis_);
    inner_ = shape_size(xs, axis_ + 1, xs.size());
    for (auto* o : out) o->reshape(ys, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const int64_t n = int64_t(out.size());
    for (int64_t k = 0; k < n; ++k)
      copy_blocks(x + k * inner_, n * inner_, out_data(out[k]), inner_, outer_, inner_, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    float* dx = in_grad(in[0], accum[0]);
    const int64_t n = int64_t(out.size());
    for (int64_t k = 0; k < n; ++k)
      copy_blocks(out_grad(out[k]), inner_, dx + k * inner_, n * inner_, outer_, inner_, accum[0]);
  }

 private:
  int axis_ = 0;
  int64_t outer_ = 1, inner_ = 1;
};

// Stack: inputs of one shape joined along a new axis.
class Stack : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(!in.empty()) << "Stack needs at least one input";
    const Shape& s0 = in[0]->shape();
    for (size_t i = 1; i < in.size(); ++i)
      NN_CHECK(in[i]->shape() == s0) << "Stack: input " << i << " " << to_string(in[i]->shape())
                                     << " differs from input 0 " << to_string(s0);
    const int64_t axis = stack_axis(attrs_, s0);
    Shape ys = s0;
    ys.insert(ys.begin() + axis, int64_t(in.size()));
    outer_ = shape_size(s0, 0, size_t(axis));
    inner_ = shape_size(s0, size_t(axis), s0.size());
    out[0]->reshape(ys, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    float* y = out_data(out[0]);
    const int64_t n = int64_t(in.size());
    for (int64_t k = 0; k < n; ++k)
      copy_blocks(in_data(in[k]), inner_, y + k * inner_, n * inner_, outer_, inner_, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    const int64_t n = int64_t(in.size());
    for (int64_t k = 0; k < n; ++k)
      if (prop[k])
        copy_blocks(dy + k * inner_, n * inner_, in_grad(in[k], accum[k]), inner_, outer_, inner_, accum[k]);
  }

 private:
  int64_t outer_ = 1, inner_ = 1;
};

}  // namespace

void register_concatenate(OpRegistry& r) {
  register_cpu<Concatenate>(r, SchemaBuilder("Concatenate", "Array Manipulation")
                                   .doc("joins inputs along an existing axis")
                                   .in_variadic("x")
                                   .arg("axis", AttrType::kInt, std::nullopt, "last axis")
                                   .out("y")
                                   .build());
}

void register_split(OpRegistry& r) {
  register_cpu<Split>(r, SchemaBuilder("Split", "Array Manipulation")
                             .doc("one output per index along axis (that axis removed)")
                             .in("x")
                             .arg("axis", AttrType::kInt, AttrValue(int64_t(0)))
                             .out_variadic("y")
                             .build());
}

void register_stack(OpRegistry& r) {
  register_cpu<Stack>(r, SchemaBuilder("Stack", "Array Manipulation")
                             .doc("joins inputs of one shape along a new axis")
                             .in_variadic("x")
                             .arg("axis", AttrType::kInt, AttrValue(int64_t(0)))
                             .out("y")
                             .build());
}

}  // namespace nn::ops
