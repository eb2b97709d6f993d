// MaxPoolingBackward: dx from (dy, x) against a 2-D double reference that routes each dy to the first
// maximum of its window; its gradient w.r.t. dy gathers, w.r.t. x is zero.
#include <gtest/gtest.h>

#include <algorithm>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

struct Pool2d {
  std::vector<int64_t> kernel, stride, pad;
  bool ignore_border;
};

int64_t pooled(int64_t w, int64_t k, int64_t s, int64_t p, bool ignore_border) {
  return ignore_border ? (w + 2 * p - k) / s + 1 : (w + p - 1) / s + 1;
}

Reference mpb_ref(const Pool2d& a) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const auto& dy = in[0];
    const auto& x = in[1];
    const int64_t h = x.shape[2], w = x.shape[3], maps = x.shape[0] * x.shape[1];
    const int64_t oh = dy.shape[2], ow = dy.shape[3];
    RefArray dx{x.shape, std::vector<double>(x.data.size(), 0.0)};
    for (int64_t m = 0; m < maps; ++m)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          const int64_t r0 = i * a.stride[0] - a.pad[0], c0 = j * a.stride[1] - a.pad[1];
          const int64_t r1 = std::min({r0 + a.kernel[0], h + a.pad[0], h}),
                        c1 = std::min({c0 + a.kernel[1], w + a.pad[1], w});
          int64_t best = -1;
          for (int64_t r = std::max<int64_t>(r0, 0); r < r1; ++r)
            for (int64_t c = std::max<int64_t>(c0, 0); c < c1; ++c) {
              const int64_t k = m * h * w + r * w + c;
              if (best < 0 || x.data[size_t(k)] > x.data[size_t(best)]) best = k;
            }
          if (best >= 0) dx.data[size_t(best)] += dy.data[size_t((m * oh + i) * ow + j)];
        }
    return std::vector<RefArray>{dx};
  };
}

// Distinct values 0.05 apart in random order, so the argmax survives the numeric-gradient step.
RefArray distinct_input(const nn::Shape& shape, std::mt19937& rng) {
  RefArray x{shape, std::vector<double>(size_t(ref_size(shape)))};
  for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = double(float(0.05 * double(i) - 1.0));
  std::shuffle(x.data.begin(), x.data.end(), rng);
  return x;
}

}  // namespace

TEST(MaxPoolingBackward, RoutesDyToWindowMaxima) {
  const Pool2d cases[] = {
      {{2, 2}, {2, 2}, {0, 0}, true}, {{3, 2}, {1, 2}, {1, 0}, true}, {{2, 2}, {2, 2}, {0, 0}, false}};
  uint32_t seed = 1;
  for (const auto& a : cases) {
    std::mt19937 rng(seed++);
    const nn::Shape xs{1, 2, 5, 4};
    const nn::Shape ys{1, 2, pooled(5, a.kernel[0], a.stride[0], a.pad[0], a.ignore_border),
                       pooled(4, a.kernel[1], a.stride[1], a.pad[1], a.ignore_border)};
    nn::Attrs attrs{
        {"kernel", a.kernel}, {"stride", a.stride}, {"pad", a.pad}, {"ignore_border", a.ignore_border}};
    run_op_test({"MaxPoolingBackward", attrs, {random_input(ys, rng), distinct_input(xs, rng)}, mpb_ref(a)});
  }
}

TEST(MaxPoolingBackward, RejectsDyOfWrongShape) {
  std::mt19937 rng(4);
  nn::Attrs attrs{{"kernel", std::vector<int64_t>{2, 2}}};
  EXPECT_ANY_THROW(run_op_test({"MaxPoolingBackward",
                                attrs,
                                {random_input({1, 1, 3, 3}, rng), random_input({1, 1, 4, 4}, rng)},
                                mpb_ref({{2, 2}, {2, 2}, {0, 0}, true})}));
}
