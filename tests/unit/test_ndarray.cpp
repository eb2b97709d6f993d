// NdArray: lazy fill, dtype copies kept in sync, reshape, absurd shapes rejected.
#include <gtest/gtest.h>

#include "nn/core/error.hpp"
#include "nn/core/ndarray.hpp"

using namespace nn;

TEST(NdArray, LazyFillAndDtypeSync) {
  auto a = NdArray::create({2, 3});
  a->fill(2.0);
  const int32_t* i = a->get<int32_t>();
  EXPECT_EQ(i[5], 2);
  float* f = a->cast<float>();
  f[0] = 7.5f;
  EXPECT_EQ(a->get<int32_t>()[0], 7);  // int copy re-synced from the new float head
  EXPECT_EQ(a->dtype(), DType::kFloat32);
}

TEST(NdArray, ClearFreesAndCountsBytes) {
  size_t before = NdArray::live_bytes();
  auto a = NdArray::create({1024});
  a->cast<float>(true);
  EXPECT_EQ(NdArray::live_bytes(), before + 4096);
  a->clear();
  EXPECT_EQ(NdArray::live_bytes(), before);
}

TEST(NdArray, RejectsAbsurdShapes) {
  EXPECT_THROW(NdArray::create({1000000000000LL, 1000000}), Error);
  EXPECT_THROW(NdArray::create({-3, 2}), Error);
}

TEST(NdArray, HalfRoundTrip) {
  auto a = NdArray::create({4});
  float* f = a->cast<float>(true);
  f[0] = 1.f;
  f[1] = -0.5f;
  f[2] = 65504.f;
  f[3] = 1e-6f;
  a->cast_raw(ArrayKey{DType::kFloat16, "cpu"});
  auto v = a->to_vector();
  EXPECT_EQ(v[0], 1.f);
  EXPECT_EQ(v[1], -0.5f);
  EXPECT_EQ(v[2], 65504.f);
  EXPECT_NEAR(v[3], 1e-6f, 1e-7);
}
