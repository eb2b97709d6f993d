// CsvDataSource on the real NNC datasets in shared/testdata (PNG, BMP, per-row CSV, image pairs, Windows
// paths) and its errors on malformed rows (file and line asserted).
#include "formats/datasets/csv_data_source.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>

#include "formats/datasets/image_io.hpp"
#include "nn/core/error.hpp"
#include "test_data_util.hpp"

namespace ds = nn::formats::datasets;
using nn::Shape;
using nn::test::spresense_dataset;

namespace {

std::vector<std::vector<float>> load_row(const ds::DataSource& src, int64_t index) {
  std::vector<std::vector<float>> out;
  std::vector<float*> ptrs;
  for (const auto& s : src.shapes()) out.emplace_back(size_t(nn::shape_size(s)));
  for (auto& o : out) ptrs.push_back(o.data());
  src.load(index, ptrs);
  return out;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const nn::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(CsvDataSource, GrayscalePngWithWindowsPaths) {
  const std::string csv = spresense_dataset("number") + "/number/id_train/id_train.csv";
  auto src = ds::CsvDataSource::open(csv);
  EXPECT_EQ(src->size(), 768);
  EXPECT_EQ(src->variables(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(src->shapes()[0], (Shape{1, 28, 28}));
  EXPECT_EQ(src->shapes()[1], (Shape{1}));
  EXPECT_EQ(src->storage_descr(0), "|u1");
  // Row 0 is ".\a\0_0085.png,10"; compare with a direct decode of the file.
  auto row = load_row(*src, 0);
  EXPECT_EQ(row[1][0], 10.0f);
  ds::DecodedImage img = ds::read_image(spresense_dataset("number") + "/number/id_train/a/0_0085.png");
  ASSERT_EQ(img.pixels.size(), 28u * 28u);
  float max_value = 0;
  for (size_t i = 0; i < img.pixels.size(); ++i) {
    EXPECT_EQ(row[0][i], float(img.pixels[i] * (1.0 / 255.0)));
    max_value = std::max(max_value, row[0][i]);
  }
  EXPECT_GT(max_value, 0.5f);
  EXPECT_LE(max_value, 1.0f);
  // Without normalisation the raw 0..255 values come through.
  auto raw = ds::CsvDataSource::open(csv, ds::CsvDatasetOptions{false});
  auto raw_row = load_row(*raw, 0);
  for (size_t i = 0; i < img.pixels.size(); ++i) EXPECT_EQ(raw_row[0][i], float(img.pixels[i]));
}

TEST(CsvDataSource, PaletteBmpExpandsToRgbLikePil) {
  const std::string csv = spresense_dataset("spectro_recog") + "/spectro_recog/train/spc_train.csv";
  auto src = ds::CsvDataSource::open(csv);
  EXPECT_EQ(src->size(), 150);
  EXPECT_EQ(src->variables(), (std::vector<std::string>{"x", "y"}));
  // 8-bit palette BMP, 16 wide and 48 high: PIL converts mode 'P' to RGB.
  ASSERT_EQ(src->shapes()[0], (Shape{3, 48, 16}));
  auto row = load_row(*src, src->size() - 1);
  const size_t plane = 48 * 16;
  for (size_t p = 0; p < plane; ++p) EXPECT_EQ(row[0][p], row[0][plane + p]);  // a gray palette
}

TEST(CsvDataSource, PerRowCsvMatrices) {
  const std::string csv = spresense_dataset("gesture_recog") + "/gesture_recog/train/gst_train.csv";
  auto src = ds::CsvDataSource::open(csv);
  EXPECT_EQ(src->size(), 148);
  ASSERT_EQ(src->shapes()[0], (Shape{200, 1}));
  EXPECT_EQ(src->storage_descr(0), "<f8");
  auto row = load_row(*src, 0);
  EXPECT_EQ(row[0][0], float(-0.007136));  // first line of dtap/dt002.csv (CRLF)
  EXPECT_EQ(row[0][1], float(-0.013476));
  EXPECT_EQ(row[1][0], 0.0f);
}

TEST(CsvDataSource, ImagePairsRgbInputGrayMask) {
  const std::string csv = spresense_dataset("binary_semaseg") + "/binary_semaseg/train/train.csv";
  auto src = ds::CsvDataSource::open(csv);
  EXPECT_EQ(src->size(), 600);
  EXPECT_EQ(src->variables(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(src->shapes()[0], (Shape{3, 28, 28}));
  EXPECT_EQ(src->shapes()[1], (Shape{1, 28, 28}));
  auto row = load_row(*src, 599);
  for (float v : row[1]) EXPECT_TRUE(v >= 0.0f && v <= 1.0f);
}

TEST(CsvDataSource, DigitsCsvMatchesGoldenCache) {
  // golden/training/digits_mlp_sgd: the CSV data are bit-identical to the NPY cache (float32 k/16 values).
  const std::string dir = nn::test::testdata("golden/training/digits_mlp_sgd");
  auto src = ds::CsvDataSource::open(dir + "/data/valid.csv");
  EXPECT_EQ(src->size(), 100);
  EXPECT_EQ(src->shapes()[0], (Shape{64, 1}));
  EXPECT_EQ(src->shapes()[1], (Shape{1}));
  auto row = load_row(*src, 0);
  EXPECT_EQ(row[1][0], 1.0f);  // "./valid/0000.csv,1"
  for (float v : row[0]) EXPECT_EQ(v * 16.0f, std::round(v * 16.0f));
}

TEST(CsvDataSource, IndexedAndCommentColumns) {
  const std::string dir = nn::test::scratch_dir("indexed");
  nn::test::write_text(dir + "/m.csv", "1,2\n3,4\n5,6\n");
  nn::test::write_text(dir + "/d.csv", "#id,v__0:a,v__1:b,m,y\nfoo,1.5,2.5,m.csv,7\nbar,3,4,./m.csv,8\n");
  auto src = ds::CsvDataSource::open(dir + "/d.csv");
  EXPECT_EQ(src->variables(), (std::vector<std::string>{"v", "m", "y"}));
  EXPECT_EQ(src->shapes()[0], (Shape{2}));
  EXPECT_EQ(src->shapes()[1], (Shape{3, 2}));
  EXPECT_EQ(src->header().size(), 5u);
  auto row = load_row(*src, 1);
  EXPECT_EQ(row[0], (std::vector<float>{3, 4}));
  EXPECT_EQ(row[1], (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(row[2], (std::vector<float>{8}));
}

TEST(CsvDataSource, ErrorsNameFileLineAndColumn) {
  const std::string dir = nn::test::scratch_dir("errors");
  const std::string good = spresense_dataset("number") + "/number/id_train/a/0_0085.png";
  const std::string small = spresense_dataset("spectro_recog") + "/spectro_recog/train/end/000.bmp";
  nn::test::write_text(dir + "/m.csv", "1,2\n3,x\n");

  nn::test::write_text(dir + "/missing.csv", "x:image,y\n" + good + ",1\n" + dir + "/nope.png,2\n");
  auto src = ds::CsvDataSource::open(dir + "/missing.csv");
  std::string msg = error_of([&] { load_row(*src, 1); });
  EXPECT_NE(msg.find("missing.csv:3: column 1 ('x:image')"), std::string::npos) << msg;
  EXPECT_NE(msg.find("nope.png"), std::string::npos) << msg;

  nn::test::write_text(dir + "/count.csv", "x,y\n1,2\n3,4\n5\n");
  msg = error_of([&] { ds::CsvDataSource::open(dir + "/count.csv"); });
  EXPECT_NE(msg.find("count.csv:4: 1 columns, the header has 2"), std::string::npos) << msg;

  nn::test::write_text(dir + "/size.csv", "x\n" + good + "\n" + small + "\n");
  src = ds::CsvDataSource::open(dir + "/size.csv");
  msg = error_of([&] { load_row(*src, 1); });
  EXPECT_NE(msg.find("size.csv:3: column 1 ('x')"), std::string::npos) << msg;
  EXPECT_NE(msg.find("has shape (3, 48, 16), the first row's has (1, 28, 28)"), std::string::npos) << msg;

  nn::test::write_text(dir + "/number.csv", "v__0,v__1\n1,2\n3,abc\n");
  src = ds::CsvDataSource::open(dir + "/number.csv");
  msg = error_of([&] { load_row(*src, 1); });
  EXPECT_NE(msg.find("number.csv:3: column 2 ('v__1'): 'abc' is not a number"), std::string::npos) << msg;

  nn::test::write_text(dir + "/matrix.csv", "x\nm.csv\n");
  msg = error_of([&] { ds::CsvDataSource::open(dir + "/matrix.csv"); });
  EXPECT_NE(msg.find("matrix.csv:2: column 1 ('x')"), std::string::npos) << msg;
  EXPECT_NE(msg.find("m.csv:2: 'x' is not a number"), std::string::npos) << msg;

  nn::test::write_text(dir + "/ext.csv", "x\nfile.xyz\n");
  msg = error_of([&] { ds::CsvDataSource::open(dir + "/ext.csv"); });
  EXPECT_NE(msg.find("File format with extension \".xyz\" is not supported."), std::string::npos) << msg;

  msg = error_of([&] { ds::CsvDataSource::open(dir + "/absent.csv"); });
  EXPECT_NE(msg.find("absent.csv"), std::string::npos) << msg;
}
