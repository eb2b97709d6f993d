// RandomCrop: a random window of the trailing axes per sample; draws in upstream's order, gradients through the
// kept elements.
#include <vector>

#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// RandomCrop: the trailing axes covered by `shape` are cut to it at a random offset per sample (the axes
// before base_axis index samples); the axes in between are kept whole.
class RandomCrop : public Function {
 public:
  RandomCrop(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), random_(attrs_.get_int("seed")) {}
  bool is_stochastic() const override { return true; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const int64_t base_axis = attrs_.get_int("base_axis");
    NN_CHECK(base_axis >= 0 && base_axis < int64_t(xs.size()))
        << "RandomCrop: base_axis " << base_axis << " must be in [0, " << xs.size() << ") for x " << to_string(xs);
    Shape shape = attrs_.get_ints("shape", {});
    if (shape.empty()) shape = xs;  // default: x.shape (no crop)
    NN_CHECK(shape.size() <= xs.size())
        << "RandomCrop: shape " << to_string(shape) << " has more axes than x " << to_string(xs);
    offset_axis_ = int(xs.size() - shape.size());
    for (int64_t d = offset_axis_; d < base_axis; ++d)
      NN_CHECK(shape[d - offset_axis_] == xs[d])
          << "RandomCrop: shape " << to_string(shape) << " would crop the sample axes before base_axis "
          << base_axis << " of x " << to_string(xs);
    Shape ys = xs;
    for (size_t i = 0; i < shape.size(); ++i) {
      NN_CHECK(shape[i] >= 0 && shape[i] <= xs[offset_axis_ + i])
          << "RandomCrop: shape " << to_string(shape) << " must fit in x " << to_string(xs);
      ys[offset_axis_ + i] = shape[i];
    }
    base_axis_ = int(base_axis);
    samples_ = shape_size(xs, 0, base_axis_);
    out[0]->reshape(ys, true);
  }

  // Calls f(y offset, x offset) for every element, with the per-sample crop starts.
  template <class F>
  void walk(const Shape& xs, const Shape& ys, F&& f) const {
    const Shape xstr = shape_strides(xs);
    const Shape inner(ys.begin() + base_axis_, ys.end());
    const int64_t inner_size = shape_size(inner), x_sample = shape_size(xs, base_axis_, xs.size());
    std::vector<int64_t> idx(inner.size(), 0);
    for (int64_t s = 0; s < samples_; ++s) {
      const std::vector<int64_t>& start = starts_[s];
      for (int64_t i = 0; i < inner_size; ++i) {
        int64_t off = s * x_sample;
        for (size_t d = 0; d < inner.size(); ++d) off += (idx[d] + start[base_axis_ + d]) * xstr[base_axis_ + d];
        f(s * inner_size + i, off);
        for (int d = int(inner.size()) - 1; d >= 0; --d) {
          if (++idx[d] < inner[d]) break;
          idx[d] = 0;
        }
      }
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& ys = out[0]->shape();
    RandomEngine& g = random_.engine();
    starts_.assign(size_t(samples_), std::vector<int64_t>(xs.size(), 0));
    for (auto& start : starts_)
      for (size_t d = size_t(offset_axis_); d < xs.size(); ++d)
        start[d] = int64_t(g() % uint32_t(xs[d] - ys[d] + 1));
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    walk(xs, ys, [&](int64_t yo, int64_t xo) { y[yo] = x[xo]; });
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    walk(in[0]->shape(), out[0]->shape(), [&](int64_t yo, int64_t xo) { dx[xo] += dy[yo]; });
  }

 private:
  SeededRandom random_;
  int base_axis_ = 1, offset_axis_ = 0;
  int64_t samples_ = 1;
  std::vector<std::vector<int64_t>> starts_;  // per sample, per axis
};

}  // namespace

void register_random_crop(OpRegistry& r) {
  register_cpu<RandomCrop>(r, SchemaBuilder("RandomCrop", "Stochasticity")
                                  .doc("random crop of the trailing axes per sample")
                                  .in("x")
                                  .arg("shape", AttrType::kShape, std::nullopt, "x.shape")
                                  .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                  .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)))
                                  .out("y")
                                  .build());
}

}  // namespace nn::ops
