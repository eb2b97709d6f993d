// MaxPooling: ignore_border true/false, pad, stride, 1-D/2-D/3-D; distinct inputs keep the argmax unique.
#include <gtest/gtest.h>

#include <algorithm>

#include "nn/graph/functions.hpp"
#include "nn/graph/grad_mode.hpp"
#include "nn/graph/variable.hpp"

#include "pool_reference.hpp"

using namespace nn::test;
using namespace nn::test::pool_ref;
using V = std::vector<int64_t>;

namespace {
// Distinct values (a shuffled ramp) spaced 0.05 apart: the max of every window moves by less than the
// numeric-gradient step cannot reorder, so the argmax is unambiguous.
RefArray distinct_input(const nn::Shape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  RefArray a{shape, std::vector<double>(size_t(ref_size(shape)))};
  for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = -1.0 + 0.05 * double(i);
  std::shuffle(a.data.begin(), a.data.end(), rng);
  return a;
}
void run_max(const PoolSpec& s, const nn::Shape& x, uint32_t seed) {
  run_op_test(
      {"MaxPooling", pool_attrs(s, false), {distinct_input(x, seed)}, [s](const RefInputs& in, const nn::Attrs&) {
         return std::vector<RefArray>{pool(in[0], s, Mode::kMax)};
       }});
}
}  // namespace

TEST(MaxPooling, KernelStrideDefaults) {
  run_max({V{2, 2}}, {2, 2, 4, 4}, 1);
  run_max({V{2, 2}, V{1, 1}}, {1, 2, 4, 5}, 2);
}

TEST(MaxPooling, IgnoreBorderFalse) {
  run_max({V{2, 2}, {}, {}, false}, {1, 2, 5, 5}, 3);
  run_max({V{3, 2}, V{2, 3}, {}, false}, {2, 1, 6, 7}, 4);
}

TEST(MaxPooling, Pad) {
  run_max({V{3, 3}, V{2, 2}, V{1, 1}, true}, {1, 2, 5, 5}, 5);
  run_max({V{2, 3}, V{2, 2}, V{1, 1}, false}, {1, 2, 4, 5}, 6);
}

TEST(MaxPooling, OneDAndThreeD) {
  run_max({V{3}, V{2}, V{1}, false}, {2, 3, 7}, 7);
  run_max({V{2, 2, 2}, {}, {}, true}, {1, 2, 4, 4, 3}, 8);
}

// With gradients off the forward keeps no argmax and takes its own loops (the 2x2 stride-2 case, whole windows,
// clipped border windows, windows wholly in the padding): exactly the maxima of the recording forward, which the
// tests above hold against the reference.
TEST(MaxPooling, NoGradForwardMatchesTheRecordingForward) {
  const std::vector<std::pair<PoolSpec, nn::Shape>> cases{
      {{V{2, 2}}, {1, 3, 24, 24}},
      {{V{2, 2}, {}, {}, false}, {2, 2, 7, 9}},
      {{V{3, 3}, V{2, 2}, V{1, 1}, true}, {1, 2, 11, 13}},
      {{V{3, 2}, V{1, 3}, {}, false}, {1, 2, 6, 11}},
      {{V{2, 3}, V{2, 2}, V{2, 2}, false}, {1, 1, 5, 6}},
  };
  uint32_t seed = 20;
  for (const auto& [spec, shape] : cases) {
    const RefArray x = distinct_input(shape, seed++);
    auto v = nn::Variable::create(x.shape, true);
    float* p = v->data()->cast<float>(true);
    for (size_t i = 0; i < x.data.size(); ++i) p[i] = float(x.data[i]);
    auto y = nn::call1("MaxPooling", {v}, pool_attrs(spec, false));
    nn::forward_all({y});
    const std::vector<float> recorded = y->data()->to_vector();
    {
      nn::NoGradScope no_grad;
      nn::forward_all({y});
    }
    const std::vector<float> got = y->data()->to_vector();
    ASSERT_EQ(got.size(), recorded.size()) << nn::to_string(shape);
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], recorded[i]) << nn::to_string(shape) << " at " << i;
  }
}
