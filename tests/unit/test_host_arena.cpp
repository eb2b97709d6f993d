// The host arena (libnn/src/core/host_arena.hpp): first fit at the lowest free address, freed neighbours merged,
// blocks larger than a mapping, 64-byte alignment, blocks from several threads at once, and NdArrays in it only
// once it is opened.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "core/host_arena.hpp"
#include "nn/core/ndarray.hpp"

namespace {

constexpr size_t kBlock = size_t(256) << 10;

#if defined(NN_HOST_ARENA_OFF)
TEST(HostArena, SanitizerBuildsKeepMalloc) { EXPECT_EQ(nn::arena_allocate(kBlock), nullptr); }
#else
TEST(HostArena, AFreedBlockIsTheFirstThatFits) {
  char* a = static_cast<char*>(nn::arena_allocate(kBlock));
  char* b = static_cast<char*>(nn::arena_allocate(kBlock));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  nn::arena_free(a, kBlock);
  char* c = static_cast<char*>(nn::arena_allocate(kBlock / 2));  // the lowest range that fits: a's
  EXPECT_EQ(c, a);
  nn::arena_free(c, kBlock / 2);
  nn::arena_free(b, kBlock);
}

TEST(HostArena, FreedNeighboursMerge) {
  char* a = static_cast<char*>(nn::arena_allocate(kBlock));
  char* b = static_cast<char*>(nn::arena_allocate(kBlock));
  char* c = static_cast<char*>(nn::arena_allocate(kBlock));
  char* guard = static_cast<char*>(nn::arena_allocate(kBlock));  // keeps c's range from merging upwards
  ASSERT_EQ(b, a + kBlock);
  ASSERT_EQ(c, b + kBlock);
  nn::arena_free(a, kBlock);
  nn::arena_free(c, kBlock);
  nn::arena_free(b, kBlock);  // between two free ranges: one range of three blocks
  char* whole = static_cast<char*>(nn::arena_allocate(3 * kBlock));
  EXPECT_EQ(whole, a);
  std::memset(whole, 1, 3 * kBlock);  // all of it writable
  nn::arena_free(whole, 3 * kBlock);
  nn::arena_free(guard, kBlock);
}

TEST(HostArena, ABlockLargerThanAMappingGetsItsOwn) {
  const size_t big = size_t(80) << 20;
  char* p = static_cast<char*>(nn::arena_allocate(big));
  ASSERT_NE(p, nullptr);
  p[0] = 1;
  p[big - 1] = 2;
  nn::arena_free(p, big);
  EXPECT_EQ(nn::arena_allocate(big), p);  // given back whole, found again
  nn::arena_free(p, big);
}

TEST(HostArena, ThreadsAllocateAndFreeAtOnce) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 200; ++i) {
        const size_t bytes = kBlock + size_t(64 * ((i + t) % 7));
        auto* p = static_cast<unsigned char*>(nn::arena_allocate(bytes));
        if (!p) {
          ++failures[size_t(t)];
          continue;
        }
        std::memset(p, t + 1, bytes);
        if (p[0] != t + 1 || p[bytes - 1] != t + 1) ++failures[size_t(t)];  // no block handed out twice
        nn::arena_free(p, bytes);
      }
    });
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

// CTest runs each case in a process of its own, so nothing here opened the arena before this case.
TEST(HostArena, ArraysComeFromItOnlyOnceOpened) {
  const nn::Shape activation_size{int64_t(kBlock / sizeof(float))};
  nn::NdArrayPtr loaded = nn::NdArray::create(activation_size);
  EXPECT_FALSE(nn::arena_holds(loaded->cast<float>()));
  nn::NdArray::open_arena();
  nn::NdArrayPtr activation = nn::NdArray::create(activation_size);
  EXPECT_TRUE(nn::arena_holds(activation->cast<float>()));
  nn::NdArrayPtr small = nn::NdArray::create({16});  // below 16 KiB: malloc's
  EXPECT_FALSE(nn::arena_holds(small->cast<float>()));
}
#endif

}  // namespace
