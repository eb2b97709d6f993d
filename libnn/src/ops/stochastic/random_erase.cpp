// RandomErase: n random rectangles per image (per channel unless share) replaced by uniform noise, with
// upstream's draw order and inclusive rectangle bounds; backward zeroes erased pixels (ste_fine_grained) or
// passes the gradient straight through.
#include <cmath>
#include <random>

#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

struct EraseBox {
  float prob;              // the draw compared with the prob argument
  int64_t y0, x0, y1, x1;  // inclusive bounds
  bool covers(int64_t h, int64_t w, float p) const {
    return prob <= p && y0 <= h && h <= y1 && x0 <= w && w <= x1;
  }
};

class RandomErase : public Function {
 public:
  RandomErase(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a),
        random_(attrs_.get_int("seed")),
        prob_(float(attrs_.get_float("prob"))),
        area_(attrs_.get_floats("area_ratios")),
        aspect_(attrs_.get_floats("aspect_ratios")),
        replacement_(attrs_.get_floats("replacements")),
        n_(attrs_.get_int("n")),
        share_(attrs_.get_bool("share")),
        ste_fine_grained_(attrs_.get_bool("ste_fine_grained")) {}
  bool is_stochastic() const override { return true; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const int64_t base_axis = attrs_.get_int("base_axis");
    NN_CHECK(prob_ >= 0 && prob_ <= 1) << "RandomErase: prob must be in [0, 1], got " << prob_;
    NN_CHECK(area_.size() == 2 && aspect_.size() == 2 && replacement_.size() == 2)
        << "RandomErase: area_ratios, aspect_ratios and replacements must have 2 values each";
    NN_CHECK(n_ > 0) << "RandomErase: n must be positive, got " << n_;
    NN_CHECK(base_axis >= 0 && int64_t(xs.size()) - base_axis == 3)
        << "RandomErase: the axes from base_axis " << base_axis << " must be (C, H, W), got x " << to_string(xs);
    NN_CHECK(!attrs_.get_bool("channel_last")) << "RandomErase: channel_last is not supported";
    batches_ = shape_size(xs, 0, size_t(base_axis));
    channels_ = xs[base_axis];
    height_ = xs[base_axis + 1];
    width_ = xs[base_axis + 2];
    out[0]->reshape(xs, true);
  }

  // Boxes for (n, b[, c]) in upstream's order: area, aspect, prob, top, left.
  void draw_boxes(RandomEngine& g) {
    std::uniform_real_distribution<float> u_prob(0.f, 1.f),
        u_area(static_cast<float>(area_[0]), static_cast<float>(area_[1])),
        u_aspect(static_cast<float>(aspect_[0]), static_cast<float>(aspect_[1]));
    const int64_t per_batch = share_ ? 1 : channels_;
    boxes_.resize(size_t(n_ * batches_ * per_batch));
    const float area = float(height_ * width_);
    for (auto& box : boxes_) {
      const float se = u_area(g) * area, re = u_aspect(g);
      const int64_t he = std::min(int64_t(std::sqrt(se * re)), height_);
      const int64_t we = std::min(int64_t(std::sqrt(se / re)), width_);
      std::uniform_int_distribution<int> top(0, int(height_ - he)), left(0, int(width_ - we));
      box.prob = u_prob(g);
      box.y0 = top(g);
      box.x0 = left(g);
      box.y1 = box.y0 + he;
      box.x1 = box.x0 + we;
    }
  }
  const EraseBox& box(int64_t n, int64_t b, int64_t c) const {
    return share_ ? boxes_[n * batches_ + b] : boxes_[(n * batches_ + b) * channels_ + c];
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    RandomEngine& g = random_.engine();
    draw_boxes(g);
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::copy(x, x + in[0]->size(), y);
    std::uniform_real_distribution<float> fill(static_cast<float>(replacement_[0]),
                                               static_cast<float>(replacement_[1]));
    const int64_t plane = height_ * width_;
    for (int64_t n = 0; n < n_; ++n)
      for (int64_t b = 0; b < batches_; ++b)
        for (int64_t c = 0; c < channels_; ++c) {
          const EraseBox& e = box(n, b, c);
          float* p = y + (b * channels_ + c) * plane;
          for (int64_t h = 0; h < height_; ++h)
            for (int64_t w = 0; w < width_; ++w)
              if (e.covers(h, w, prob_)) p[h * width_ + w] = fill(g);
        }
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const int64_t plane = height_ * width_;
    for (int64_t b = 0; b < batches_; ++b)
      for (int64_t c = 0; c < channels_; ++c)
        for (int64_t h = 0; h < height_; ++h)
          for (int64_t w = 0; w < width_; ++w) {
            bool erased = false;
            for (int64_t n = 0; ste_fine_grained_ && n < n_ && !erased; ++n)
              erased = box(n, b, c).covers(h, w, prob_);
            const int64_t i = (b * channels_ + c) * plane + h * width_ + w;
            store_grad(dx, i, erased ? 0.f : dy[i], accum[0]);
          }
  }

 private:
  SeededRandom random_;
  float prob_;
  std::vector<double> area_, aspect_, replacement_;
  int64_t n_;
  bool share_, ste_fine_grained_;
  int64_t batches_ = 1, channels_ = 1, height_ = 1, width_ = 1;
  std::vector<EraseBox> boxes_;  // from the last forward
};

}  // namespace

void register_random_erase(OpRegistry& r) {
  register_cpu<RandomErase>(
      r, SchemaBuilder("RandomErase", "Stochasticity")
             .doc("erase random rectangles with uniform noise")
             .in("x")
             .arg("prob", AttrType::kFloat, AttrValue(0.5))
             .arg("area_ratios", AttrType::kFloats, AttrValue(std::vector<double>{0.02, 0.4}))
             .arg("aspect_ratios", AttrType::kFloats, AttrValue(std::vector<double>{0.3, 3.3333}))
             .arg("replacements", AttrType::kFloats, AttrValue(std::vector<double>{0.0, 255.0}))
             .arg("n", AttrType::kInt, AttrValue(int64_t(1)))
             .arg("share", AttrType::kBool, AttrValue(true))
             .arg("inplace", AttrType::kBool, AttrValue(false))
             .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
             .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)))
             .arg("channel_last", AttrType::kBool, AttrValue(false))
             .arg("ste_fine_grained", AttrType::kBool, AttrValue(true))
             .out("y")
             .build());
}

}  // namespace nn::ops
