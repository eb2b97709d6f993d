// ConfusionMatrix against a double reference (argmax counts per label), default and inner axis.
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
Reference confusion_ref(int axis) {
  return [axis](const RefInputs& in, const nn::Attrs&) {
    const auto& xs = in[0].shape;
    int64_t outer = 1, inner = 1, c = xs[size_t(axis)];
    for (int d = 0; d < axis; ++d) outer *= xs[size_t(d)];
    for (size_t d = size_t(axis) + 1; d < xs.size(); ++d) inner *= xs[d];
    RefArray y{{c, c}, std::vector<double>(size_t(c * c), 0.0)};
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t best = 0;
        for (int64_t k = 1; k < c; ++k)
          if (in[0].data[size_t((o * c + k) * inner + i)] > in[0].data[size_t((o * c + best) * inner + i)])
            best = k;
        int64_t label = int64_t(in[1].data[size_t(o * inner + i)]);
        y.data[size_t(label * c + best)] += 1;
      }
    return std::vector<RefArray>{y};
  };
}
}  // namespace

TEST(ConfusionMatrix, LastAxisAndInnerAxis) {
  std::mt19937 rng(1);
  run_op_test(
      {"ConfusionMatrix", {}, {random_input({12, 4}, rng), random_labels({12, 1}, rng, 4)}, confusion_ref(1)});
  run_op_test({"ConfusionMatrix",
               {{"axis", int64_t(1)}},
               {random_input({3, 3, 5}, rng), random_labels({3, 1, 5}, rng, 3)},
               confusion_ref(1)});
}
