// RandomChoice (weighted sampling of x's last axis, with or without replacement) and RandomCrop (a random
// window of the trailing axes per sample); draws in upstream's order, gradients through the chosen elements.
#include <numeric>
#include <random>

#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// y[b, s...] = x[b, k] with k drawn by weight w[b, k]; output shape x.shape[:-1] + shape (or + (1,)).
class RandomChoice : public Function {
 public:
  RandomChoice(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), random_(attrs_.get_int("seed")), replace_(attrs_.get_bool("replace")) {}
  bool is_stochastic() const override { return true; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    NN_CHECK(xs == in[1]->shape() && !xs.empty())
        << "RandomChoice: x " << to_string(xs) << " and w " << to_string(in[1]->shape())
        << " must have the same, non-scalar shape";
    Shape ys(xs.begin(), xs.end() - 1);
    const Shape shape = attrs_.get_ints("shape");
    if (shape.empty()) {
      ys.push_back(1);
    } else {
      ys.insert(ys.end(), shape.begin(), shape.end());
    }
    population_ = xs.back();
    batches_ = shape_size(xs, 0, xs.size() - 1);
    draws_ = shape.empty() ? 1 : shape_size(shape);
    NN_CHECK(replace_ || draws_ <= population_)
        << "RandomChoice: cannot draw " << draws_ << " values without replacement from " << population_;
    out[0]->reshape(ys, true);
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* w = in_data(in[1]);
    float* y = out_data(out[0]);
    chosen_.assign(size_t(batches_ * draws_), 0);
    RandomEngine& g = random_.engine();
    std::vector<float> weights(static_cast<size_t>(population_)), cum(static_cast<size_t>(population_));
    for (int64_t b = 0; b < batches_; ++b) {
      const float* wb = w + b * population_;
      int64_t* pick = chosen_.data() + b * draws_;
      weights.assign(wb, wb + population_);
      int64_t positive = 0;
      for (float v : weights) {
        NN_CHECK(v >= 0) << "RandomChoice: negative weight " << v;
        positive += v > 0;
      }
      NN_CHECK(positive >= (replace_ ? 1 : draws_))
          << "RandomChoice: " << positive << " positive weights are too few for " << draws_ << " draws"
          << (replace_ ? "" : " without replacement");
      std::partial_sum(weights.begin(), weights.end(), cum.begin());
      if (replace_) {
        std::uniform_real_distribution<> u(0, cum.back());
        for (int64_t d = 0; d < draws_; ++d) {
          const float v = float(u(g));
          int64_t k = population_ - 1;
          for (int64_t i = 0; i < population_; ++i)
            if (v < cum[i]) {
              k = i;
              break;
            }
          pick[d] = k;
        }
      } else {
        // Draw by the remaining weights; a hit on an already-taken element is redrawn after re-summing.
        int64_t have = 0;
        while (have < draws_) {
          std::partial_sum(weights.begin(), weights.end(), cum.begin());
          std::uniform_real_distribution<> u(0, cum.back());
          for (int64_t need = draws_ - have; need > 0; --need) {
            const float v = float(u(g));
            for (int64_t i = 0; i < population_; ++i)
              if (v < cum[i]) {
                if (weights[i] > 0) {
                  pick[have++] = i;
                  weights[i] = 0;
                }
                break;
              }
          }
        }
      }
      for (int64_t d = 0; d < draws_; ++d) y[b * draws_ + d] = x[b * population_ + pick[d]];
    }
  }

  // Both x and w receive dy at the chosen elements (as upstream).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    for (int k = 0; k < 2; ++k) {
      if (!prop[k]) continue;
      float* g = in_grad_zeroed(in[k], accum[k]);
      for (int64_t b = 0; b < batches_; ++b)
        for (int64_t d = 0; d < draws_; ++d) g[b * population_ + chosen_[b * draws_ + d]] += dy[b * draws_ + d];
    }
  }

 private:
  SeededRandom random_;
  bool replace_;
  int64_t population_ = 1, batches_ = 1, draws_ = 1;
  std::vector<int64_t> chosen_;  // per output element: index into the last axis
};

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

void register_random_choice(OpRegistry& r) {
  register_cpu<RandomChoice>(r, SchemaBuilder("RandomChoice", "Stochasticity")
                                    .doc("weighted random samples of the last axis of x")
                                    .in("x")
                                    .in("w")
                                    .arg("shape", AttrType::kShape, AttrValue(std::vector<int64_t>{}))
                                    .arg("replace", AttrType::kBool, AttrValue(true))
                                    .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)))
                                    .out("y")
                                    .build());
}

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
