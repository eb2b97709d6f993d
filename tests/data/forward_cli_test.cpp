// `nncli forward` end to end on golden/training/digits_mlp_sgd: the softmax of the first validation samples
// must match nbla's infer output (1e-4 relative), with CSV and cache datasets and a partial last batch.
#include <gtest/gtest.h>

#include <filesystem>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "formats/datasets/csv_text.hpp"
#include "test_data_util.hpp"

namespace ds = nn::formats::datasets;

namespace {

#ifdef NNCLI_PATH
const std::string kNncli = NNCLI_PATH;
#else
const std::string kNncli;
#endif

std::vector<float> golden_softmax() {
  std::string bytes =
      nn::test::read_text(nn::test::testdata("golden/training/digits_mlp_sgd/infer_trained_out_0.bin"));
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

// Runs forward in the golden folder; returns the parsed result CSV.
std::vector<ds::CsvRecord> run_forward(const std::string& dataset, const std::string& extra,
                                       const std::string& out) {
  const std::string dir = nn::test::testdata("golden/training/digits_mlp_sgd");
  std::string cmd = "cd '" + dir + "' && '" + kNncli + "' forward -c net.nntxt -p result_nbla/parameters.h5 -d " +
                    dataset + " -o '" + out + "' " + extra + " > '" + out + ".log' 2>&1";
  int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd << "\n" << nn::test::read_text(out + ".log");
  return ds::read_csv_file(out + "/output_result.csv");
}

void expect_golden_rows(const std::vector<ds::CsvRecord>& rows) {
  ASSERT_EQ(rows.size(), 101u);
  std::vector<std::string> header{"x:image", "y:label"};
  for (int k = 0; k < 10; ++k) header.push_back("y'__" + std::to_string(k));
  EXPECT_EQ(rows[0].cells, header);
  EXPECT_EQ(rows[1].cells[0], "./valid/0000.csv");
  EXPECT_EQ(rows[100].cells[0], "./valid/0099.csv");
  std::vector<float> golden = golden_softmax();
  ASSERT_EQ(golden.size(), 40u);
  for (int s = 0; s < 4; ++s) {
    for (int k = 0; k < 10; ++k) {
      double got = std::stod(rows[size_t(s) + 1].cells[size_t(k) + 2]), want = golden[size_t(s * 10 + k)];
      EXPECT_NEAR(got, want, 1e-6 + 1e-4 * std::fabs(want)) << "sample " << s << " class " << k;
    }
  }
}

}  // namespace

TEST(ForwardCli, DigitsCsvMatchesNblaInfer) {
  if (kNncli.empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string out = nn::test::scratch_dir("fwd_csv");
  expect_golden_rows(run_forward("data/valid.csv", "", out));
  EXPECT_EQ(nn::test::read_text(out + "/progress.txt"), "");
}

TEST(ForwardCli, PartialLastBatchKeepsEveryRowOnce) {
  if (kNncli.empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string out = nn::test::scratch_dir("fwd_b3");
  expect_golden_rows(run_forward("data/valid.csv", "-b 3", out));  // 100 = 33 * 3 + 1
}

TEST(ForwardCli, CacheDatasetUsesOriginalCsv) {
  if (kNncli.empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string out = nn::test::scratch_dir("fwd_cache");
  expect_golden_rows(run_forward("cache/valid.cache", "", out));
}

// A cache made without a source CSV (as scripts/prepare_fashion_mnist.py makes them) has no original.csv:
// its samples are named by their index, with the same outputs.
TEST(ForwardCli, CacheWithoutOriginalCsvNamesSamplesByIndex) {
  if (kNncli.empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string cache = nn::test::scratch_dir("fwd_bare_cache") + "/valid.cache";
  const std::string golden_cache = nn::test::testdata("golden/training/digits_mlp_sgd/cache/valid.cache");
  std::filesystem::copy(golden_cache, cache, std::filesystem::copy_options::recursive);
  std::filesystem::remove(cache + "/original.csv");
  std::filesystem::remove(cache + "/order.csv");
  const std::string out = nn::test::scratch_dir("fwd_bare");
  const std::vector<ds::CsvRecord> rows = run_forward("'" + cache + "'", "", out);
  ASSERT_EQ(rows.size(), 101u);
  EXPECT_EQ(rows[0].cells.front(), "index");
  EXPECT_EQ(rows[0].cells.size(), 11u);
  EXPECT_EQ(rows[1].cells[0], "0");
  EXPECT_EQ(rows[100].cells[0], "99");
  const std::vector<float> golden = golden_softmax();
  for (int k = 0; k < 10; ++k)
    EXPECT_NEAR(std::stod(rows[1].cells[size_t(k) + 1]), golden[size_t(k)],
                1e-6 + 1e-4 * std::fabs(golden[size_t(k)]));
}

// A cache directory whose name does not end in .cache (train's own caches, conv_dataset outputs) is read.
TEST(ForwardCli, CacheDirectoryWithAnyName) {
  if (kNncli.empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string cache = nn::test::scratch_dir("fwd_named_cache") + "/valid_data";
  std::filesystem::copy(nn::test::testdata("golden/training/digits_mlp_sgd/cache/valid.cache"), cache,
                        std::filesystem::copy_options::recursive);
  const std::string out = nn::test::scratch_dir("fwd_named");
  expect_golden_rows(run_forward("'" + cache + "'", "", out));
}

TEST(ForwardCli, BadDatasetFails) {
  if (kNncli.empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string out = nn::test::scratch_dir("fwd_bad");
  nn::test::write_text(out + "/bad.csv", "x:image,y:label\n./nope.csv,1\n");
  const std::string dir = nn::test::testdata("golden/training/digits_mlp_sgd");
  std::string cmd = "cd '" + dir + "' && '" + kNncli + "' forward -c net.nntxt -p result_nbla/parameters.h5 -d '" +
                    out + "/bad.csv' -o '" + out + "/o' > '" + out + "/log' 2>&1";
  EXPECT_NE(std::system(cmd.c_str()), 0);
  std::string log = nn::test::read_text(out + "/log");
  EXPECT_NE(log.find("bad.csv:2: column 1 ('x:image')"), std::string::npos) << log;
}
