// interleave_three_planes: every pixel of every image in place, for pixel counts with and without a partial
// vector, on one thread and split among threads (images above the threshold of threads).
#include <gtest/gtest.h>

#include <vector>

#include "ops/detail/interleave.hpp"

namespace {

void check(int64_t images, int64_t pixels) {
  std::vector<float> x(size_t(images * 3 * pixels)), y(x.size() + 1, -1.f);  // one sentinel past the end
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  nn::ops::interleave_three_planes(x.data(), y.data(), images, pixels);
  for (int64_t b = 0; b < images; ++b)
    for (int64_t p = 0; p < pixels; ++p)
      for (int64_t c = 0; c < 3; ++c)
        ASSERT_EQ(y[size_t((b * pixels + p) * 3 + c)], x[size_t((b * 3 + c) * pixels + p)])
            << images << " images of " << pixels << " pixels, at " << b << "," << p << "," << c;
  EXPECT_EQ(y.back(), -1.f);
}

TEST(Interleave, ThreePlanesToPixels) {
  for (int64_t pixels : {1, 7, 8, 9, 23, 64}) check(2, pixels);
  check(3, 224 * 224);  // threaded: one thread's range starts inside the second image
  check(1, 99 * 101);   // threaded, a partial vector at the end
}

}  // namespace
