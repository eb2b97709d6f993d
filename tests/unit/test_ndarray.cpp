// NdArray: lazy fill, dtype copies kept in sync, host layouts, reshape, absurd shapes rejected.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

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

// A host layout (here: the elements in reverse order, with one float of padding) syncs with the plain copy
// both ways, takes lazy fills and dtype reads through plain, and survives a reshape; writes move the version.
TEST(NdArray, HostLayoutSyncsWithPlain) {
  static const bool registered = [] {
    LayoutHooks hooks;
    hooks.bytes = [](const Shape& s) { return size_t(shape_size(s) + 1) * sizeof(float); };
    hooks.to_plain = [](float* plain, const void* laid, const Shape& s) {
      const int64_t n = shape_size(s);
      for (int64_t i = 0; i < n; ++i) plain[i] = static_cast<const float*>(laid)[n - 1 - i];
    };
    hooks.from_plain = [](void* laid, const float* plain, const Shape& s) {
      const int64_t n = shape_size(s);
      for (int64_t i = 0; i < n; ++i) static_cast<float*>(laid)[n - 1 - i] = plain[i];
    };
    register_layout("test_reversed", std::move(hooks));
    return true;
  }();
  ASSERT_TRUE(registered);
  const ArrayKey reversed{DType::kFloat32, "test_reversed"};
  auto a = NdArray::create({2, 3});
  float* p = a->cast<float>(true);
  for (int i = 0; i < 6; ++i) p[i] = float(i);
  const float* laid = static_cast<const float*>(a->get_raw(reversed));
  EXPECT_EQ(laid[0], 5.f);
  EXPECT_EQ(laid[5], 0.f);
  const uint64_t before = a->version();
  float* w = static_cast<float*>(a->cast_raw(reversed, true));  // written in the layout: plain is stale
  EXPECT_NE(a->version(), before);
  for (int i = 0; i < 6; ++i) w[i] = float(10 + i);
  EXPECT_EQ(a->device(), "test_reversed");
  EXPECT_EQ(a->to_vector(), (std::vector<float>{15, 14, 13, 12, 11, 10}));
  EXPECT_EQ(a->get<int32_t>()[0], 15);
  std::copy_n(std::vector<float>{1, 2, 3, 4, 5, 6}.data(), 6, static_cast<float*>(a->cast_raw(reversed)));
  a->reshape({3, 2});  // the order depends on the shape: the content moves to plain first
  EXPECT_EQ(a->to_vector(), (std::vector<float>{6, 5, 4, 3, 2, 1}));
  a->fill(7.0);
  EXPECT_EQ(static_cast<const float*>(a->get_raw(reversed))[2], 7.f);
}
