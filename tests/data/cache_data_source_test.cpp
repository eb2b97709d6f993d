// CacheDataSource on real caches (NNC's float64 autoencoder cache, the golden digits cache) and the
// NPY cache writer round trip.
#include "formats/datasets/cache_data_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "formats/datasets/csv_data_source.hpp"
#include "formats/datasets/csv_text.hpp"
#include "nn/core/error.hpp"
#include "test_data_util.hpp"

namespace ds = nn::formats::datasets;
using nn::Shape;

namespace {
std::vector<std::vector<float>> load_row(const ds::DataSource& src, int64_t index) {
  std::vector<std::vector<float>> out;
  std::vector<float*> ptrs;
  for (const auto& s : src.shapes()) out.emplace_back(size_t(nn::shape_size(s)));
  for (auto& o : out) ptrs.push_back(o.data());
  src.load(index, ptrs);
  return out;
}
std::string basename(std::string p) {
  std::replace(p.begin(), p.end(), '\\', '/');
  return p.substr(p.find_last_of('/') + 1);
}
}  // namespace

TEST(CacheDataSource, NncAutoencoderCacheMatchesItsCsv) {
  const std::string root = nn::test::spresense_dataset("autoencoder") + "/dataset";
  auto cache = ds::CacheDataSource::open(root + "/train/pipe_train.cache");
  auto csv = ds::CsvDataSource::open(root + "/pipe_train.csv");
  ASSERT_EQ(cache->variables(), (std::vector<std::string>{"x"}));
  ASSERT_EQ(cache->size(), 411);
  ASSERT_EQ(csv->size(), 411);
  EXPECT_EQ(cache->shapes()[0], (Shape{128, 1}));
  auto original = ds::read_csv_file(root + "/train/pipe_train.cache/original.csv");
  std::vector<int64_t> order = cache->original_order();
  EXPECT_EQ(order[0], 296);
  for (int64_t p : {int64_t(0), int64_t(99), int64_t(100), int64_t(250), int64_t(410)}) {
    int64_t row = order[size_t(p)];
    ASSERT_EQ(basename(original[size_t(row) + 1].cells[0]), basename(csv->rows()[size_t(row)].cells[0]));
    auto a = load_row(*cache, p), b = load_row(*csv, row);
    for (size_t k = 0; k < a[0].size(); ++k) EXPECT_NEAR(a[0][k], b[0][k], 1e-6) << p << " " << k;
  }
}

TEST(CacheDataSource, GoldenDigitsCacheEqualsCsv) {
  const std::string dir = nn::test::testdata("golden/training/digits_mlp_sgd");
  auto cache = ds::CacheDataSource::open(dir + "/cache/train.cache");
  auto csv = ds::CsvDataSource::open(dir + "/data/train.csv");
  ASSERT_EQ(cache->variables(), (std::vector<std::string>{"x", "y"}));
  ASSERT_EQ(cache->size(), 200);
  for (int64_t i : {0, 99, 100, 199}) EXPECT_EQ(load_row(*cache, i), load_row(*csv, i)) << i;
}

TEST(CacheDataSource, WriterRoundTripKeepsImagesUnnormalised) {
  const std::string csv_path = nn::test::spresense_dataset("number") + "/number/id_valid/id_valid.csv";
  auto raw = ds::CsvDataSource::open(csv_path, ds::CsvDatasetOptions{false});
  const std::string dir = nn::test::scratch_dir("cache_rt") + "/valid.cache";
  ds::CacheWriteOptions wo;
  wo.samples_per_file = 50;
  for (int64_t i = raw->size() - 1; i >= 0; --i) wo.order.push_back(i);
  wo.original_csv = csv_path;
  ds::write_npy_cache(*raw, dir, wo);
  EXPECT_TRUE(std::filesystem::exists(dir + "/cache_00000000_00000049.npy"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/cache_00000150_00000188.npy"));
  EXPECT_EQ(nn::test::read_text(dir + "/cache_info.csv"), "x\ny\n");
  EXPECT_EQ(nn::test::read_text(dir + "/cache_index.csv").substr(0, 31), "cache_00000000_00000049.npy,50\n");

  auto normalized = ds::CsvDataSource::open(csv_path);
  auto cache = ds::CacheDataSource::open(dir);  // uint8 images normalised on read
  ASSERT_EQ(cache->size(), raw->size());
  std::vector<int64_t> order = cache->original_order();
  for (int64_t p : {int64_t(0), int64_t(49), int64_t(50), int64_t(188)}) {
    EXPECT_EQ(order[size_t(p)], raw->size() - 1 - p);
    EXPECT_EQ(load_row(*cache, p), load_row(*normalized, order[size_t(p)])) << p;
  }
  auto unnormalized = ds::CacheDataSource::open(dir, ds::CacheDatasetOptions{false});
  EXPECT_EQ(load_row(*unnormalized, 3), load_row(*raw, order[3]));
}

TEST(CacheDataSource, MissingDirectoryAndBadIndex) {
  try {
    ds::CacheDataSource::open("/nonexistent/x.cache");
    FAIL();
  } catch (const nn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'/nonexistent/x.cache': cache directory not found"), std::string::npos);
  }
  const std::string dir = nn::test::scratch_dir("badcache");
  nn::test::write_text(dir + "/cache_info.csv", "x\n");
  nn::test::write_text(dir + "/cache_index.csv", "cache_00000000_00000009.npy,ten\n");
  try {
    ds::CacheDataSource::open(dir);
    FAIL();
  } catch (const nn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cache_index.csv:1: bad count 'ten'"), std::string::npos) << e.what();
  }
}
