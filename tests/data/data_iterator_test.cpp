// DataIterator: wrap-around batches, per-pass shuffling determinism, prefetch equivalence, error passing.
#include "formats/datasets/data_iterator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "nn/core/error.hpp"

namespace ds = nn::formats::datasets;

namespace {

// Sample i: x = (i, 10 i), y = (-i); fails on `bad` when set.
class CountingSource : public ds::DataSource {
 public:
  CountingSource(int64_t n, int64_t bad = -1) : n_(n), bad_(bad) {}
  int64_t size() const override { return n_; }
  const std::vector<std::string>& variables() const override { return vars_; }
  const std::vector<nn::Shape>& shapes() const override { return shapes_; }
  void load(int64_t i, const std::vector<float*>& out) const override {
    NN_CHECK(i != bad_) << "sample " << i << " is broken";
    ++loads;
    out[0][0] = float(i);
    out[0][1] = float(10 * i);
    out[1][0] = float(-i);
  }
  mutable std::atomic<int> loads{0};

 private:
  int64_t n_, bad_;
  std::vector<std::string> vars_{"x", "y"};
  std::vector<nn::Shape> shapes_{{2}, {1}};
};

std::vector<int64_t> indices_of(ds::DataIterator& it, int batches) {
  std::vector<int64_t> all;
  for (int b = 0; b < batches; ++b) {
    ds::Batch batch = it.next();
    all.insert(all.end(), batch.indices.begin(), batch.indices.end());
  }
  return all;
}

}  // namespace

TEST(DataIterator, FullBatchesWrapIntoTheNextPass) {
  auto src = std::make_shared<CountingSource>(5);
  ds::DataIterator it(src, {.batch_size = 2, .prefetch = false});
  ds::Batch b0 = it.next();
  EXPECT_EQ(b0.shapes[0], (nn::Shape{2, 2}));
  EXPECT_EQ(b0.data[0], (std::vector<float>{0, 0, 1, 10}));
  EXPECT_EQ(b0.data[1], (std::vector<float>{0, -1}));
  it.next();
  ds::Batch b2 = it.next();
  EXPECT_EQ(b2.indices, (std::vector<int64_t>{4, 0}));
  EXPECT_EQ(b2.epochs, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(indices_of(it, 2), (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(DataIterator, ShuffleIsSeededAndPermutesEachPass) {
  auto src = std::make_shared<CountingSource>(7);
  ds::IteratorOptions opt{.batch_size = 7, .shuffle = true, .seed = 313};
  ds::DataIterator a(src, opt), b(src, opt);
  std::vector<int64_t> sa = indices_of(a, 3), sb = indices_of(b, 3);
  EXPECT_EQ(sa, sb);
  for (int pass = 0; pass < 3; ++pass) {
    std::vector<int64_t> p(sa.begin() + pass * 7, sa.begin() + pass * 7 + 7);
    std::sort(p.begin(), p.end());
    EXPECT_EQ(p, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
  }
  EXPECT_NE(std::vector<int64_t>(sa.begin(), sa.begin() + 7),
            std::vector<int64_t>(sa.begin() + 7, sa.begin() + 14));
  opt.seed = 314;
  ds::DataIterator c(src, opt);
  EXPECT_NE(indices_of(c, 3), sa);
  nn::RandomEngine r1(5), r2(5);
  EXPECT_EQ(ds::random_permutation(50, r1), ds::random_permutation(50, r2));
}

TEST(DataIterator, PrefetchGivesTheSameBatches) {
  auto src = std::make_shared<CountingSource>(11);
  ds::IteratorOptions opt{.batch_size = 3, .shuffle = true, .seed = 7, .prefetch = false};
  ds::DataIterator sync(src, opt);
  opt.prefetch = true;
  ds::DataIterator async(src, opt);
  for (int i = 0; i < 9; ++i) {
    ds::Batch x = sync.next(), y = async.next();
    EXPECT_EQ(x.indices, y.indices);
    EXPECT_EQ(x.data, y.data);
  }
}

TEST(DataIterator, PrefetchLoadsAheadBoundedByQueueDepth) {
  auto src = std::make_shared<CountingSource>(100);
  {
    ds::DataIterator it(src, {.batch_size = 4, .prefetch = true, .queue_depth = 2});
    it.next();
    for (int i = 0; i < 200 && src->loads < 12; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(src->loads.load(), 12);  // the batch taken plus two prepared, no more
  }                                    // destroyed while the worker waits for room
}

TEST(DataIterator, ErrorsOnTheWorkerReachTheCaller) {
  auto src = std::make_shared<CountingSource>(10, 5);
  ds::DataIterator it(src, {.batch_size = 2, .prefetch = true});
  it.next();
  it.next();
  try {
    it.next();
    FAIL() << "no error";
  } catch (const nn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("sample 5 is broken"), std::string::npos);
  }
}

TEST(DataIterator, RejectsEmptySourcesAndBadBatchSizes) {
  EXPECT_THROW(ds::DataIterator(std::make_shared<CountingSource>(0), {}), nn::Error);
  EXPECT_THROW(ds::DataIterator(std::make_shared<CountingSource>(3), {.batch_size = 0}), nn::Error);
}
