// RandomChoice: weighted sampling of x's last axis, with or without replacement; draws in upstream's order,
// gradients through the chosen elements.
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

}  // namespace nn::ops
