// GlobalAveragePooling ((N, C, ...) -> (N, C, 1, 1)) and Unpooling (nearest upsampling by kernel).
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;
using V = std::vector<int64_t>;

TEST(GlobalAveragePooling, FourDAndTwoD) {
  std::mt19937 rng(1);
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    const auto& s = in[0].shape;
    const int64_t maps = s[0] * s[1], area = ref_size(s) / maps;
    RefArray y{{s[0], s[1], 1, 1}, std::vector<double>(size_t(maps))};
    for (int64_t m = 0; m < maps; ++m) {
      for (int64_t i = 0; i < area; ++i) y.data[size_t(m)] += in[0].data[size_t(m * area + i)];
      y.data[size_t(m)] /= double(area);
    }
    return std::vector<RefArray>{y};
  };
  run_op_test({"GlobalAveragePooling", {}, {random_input({2, 3, 4, 5}, rng)}, ref});
  run_op_test({"GlobalAveragePooling", {}, {random_input({3, 4}, rng)}, ref});
}

TEST(Unpooling, TwoDAndOneD) {
  std::mt19937 rng(2);
  auto make_ref = [](V kernel) {
    return [kernel](const RefInputs& in, const nn::Attrs&) {
      const auto& xs = in[0].shape;
      const size_t nd = kernel.size(), first = xs.size() - nd;
      nn::Shape ys = xs;
      for (size_t d = 0; d < nd; ++d) ys[first + d] *= kernel[d];
      RefArray y{ys, std::vector<double>(size_t(ref_size(ys)))};
      for (int64_t yi = 0; yi < ref_size(ys); ++yi) {
        int64_t r = yi, xi = 0, mul = 1;
        for (size_t d = ys.size(); d-- > 0;) {
          const int64_t c = r % ys[d];
          r /= ys[d];
          const int64_t xc = d >= first ? c / kernel[d - first] : c;
          xi += xc * mul;
          mul *= xs[d];
        }
        y.data[size_t(yi)] = in[0].data[size_t(xi)];
      }
      return std::vector<RefArray>{y};
    };
  };
  run_op_test({"Unpooling", {{"kernel", V{2, 3}}}, {random_input({2, 2, 3, 2}, rng)}, make_ref({2, 3})});
  run_op_test({"Unpooling", {{"kernel", V{3}}}, {random_input({2, 4}, rng)}, make_ref({3})});
}
