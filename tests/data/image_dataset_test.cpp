// Image dataset tools: Lanczos resize / aspect crop and pad / channel conversion, and end to end
// `nncli create_image_classification_dataset` then `nncli conv_dataset`, read back as CSV and cache sources.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "formats/datasets/cache_data_source.hpp"
#include "formats/datasets/csv_data_source.hpp"
#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/image_io.hpp"
#include "formats/datasets/image_resize.hpp"
#include "nn/core/error.hpp"
#include "test_data_util.hpp"

namespace ds = nn::formats::datasets;
namespace fs = std::filesystem;

namespace {

#ifdef NNCLI_PATH
const std::string kNncli = NNCLI_PATH;
#else
const std::string kNncli;
#endif

ds::Image8 ramp(int w, int h, int c) {
  ds::Image8 im{w, h, c, {}};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) im.pixels.push_back(uint8_t((x * 7 + y * 3 + k * 50) % 256));
  return im;
}

TEST(ImageResize, ConstantImageStaysConstant) {
  ds::Image8 im{10, 6, 3, std::vector<uint8_t>(10 * 6 * 3, 77)};
  for (auto [w, h] : {std::pair{5, 3}, std::pair{23, 17}, std::pair{10, 1}}) {
    ds::Image8 out = ds::resize_lanczos(im, w, h);
    ASSERT_EQ(out.width, w);
    ASSERT_EQ(out.height, h);
    for (uint8_t v : out.pixels) EXPECT_EQ(v, 77);
  }
}

TEST(ImageResize, SameSizeIsIdentityAndHalvingAverages) {
  ds::Image8 im = ramp(8, 8, 1);
  EXPECT_EQ(ds::resize_lanczos(im, 8, 8).pixels, im.pixels);
  // A linear ramp stays linear away from the borders: halving samples between pixels 2k and 2k+1.
  ds::Image8 line{32, 1, 1, {}};
  for (int x = 0; x < 32; ++x) line.pixels.push_back(uint8_t(5 * x));
  ds::Image8 half = ds::resize_lanczos(line, 16, 1);
  EXPECT_NEAR(half.pixels[7], 72.5, 0.6);
  EXPECT_NEAR(half.pixels[8], 82.5, 0.6);
}

TEST(ImageResize, CropAndPadToAspect) {
  ds::Image8 wide = ramp(40, 20, 3);
  ds::Image8 crop = ds::crop_to_aspect(wide, 16, 16);  // centre 20x20
  EXPECT_EQ(crop.width, 20);
  EXPECT_EQ(crop.height, 20);
  EXPECT_EQ(crop.pixels[0], wide.pixels[10 * 3]);
  ds::Image8 pad = ds::pad_to_aspect(wide, 16, 16);  // 40x40, 10 zero rows above
  EXPECT_EQ(pad.width, 40);
  EXPECT_EQ(pad.height, 40);
  EXPECT_EQ(pad.pixels[(9 * 40 + 5) * 3 + 2], 0);
  EXPECT_EQ(pad.pixels[(10 * 40 + 5) * 3 + 2], wide.pixels[5 * 3 + 2]);
  ds::Image8 odd = ds::crop_to_aspect(ramp(7, 4, 1), 1, 1);  // int(4/1*1)=4 wide: cut 1 each side, 5 kept
  EXPECT_EQ(odd.width, 5);
}

TEST(ImageResize, ChannelConversion) {
  ds::Image8 rgb{1, 1, 3, {100, 200, 50}};
  EXPECT_EQ(ds::convert_channels(rgb, 1).pixels[0], uint8_t(0.299 * 100 + 0.587 * 200 + 0.114 * 50));
  ds::Image8 gray{1, 1, 1, {9}};
  EXPECT_EQ(ds::convert_channels(gray, 3).pixels, (std::vector<uint8_t>{9, 9, 9}));
}

void run(const std::string& args, const std::string& log) {
  const std::string cmd = "'" + kNncli + "' " + args + " > '" + log + "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << nn::test::read_text(log);
}

// Three classes of three digit images (the first by name) from the spresense number dataset.
std::string make_class_tree(const std::string& dir) {
  const std::string src = nn::test::testdata("datasets/spresense_lowpower_edgeai/number_extracted/id_train");
  if (!fs::is_directory(src)) return "";
  for (const char* c : {"1", "4", "7"}) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(src + "/" + c)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    fs::create_directories(dir + "/classes/n" + c);
    for (size_t i = 0; i < 3 && i < files.size(); ++i)
      fs::copy_file(files[i], dir + "/classes/n" + c + "/" + files[i].filename().string());
  }
  return dir + "/classes";
}

TEST(ImageDatasetCli, CreateThenConvertReadsBackTheSameSamples) {
  if (kNncli.empty()) GTEST_SKIP() << "nncli not built";
  const std::string dir = nn::test::scratch_dir("image_dataset");
  const std::string classes = make_class_tree(dir);
  if (classes.empty()) GTEST_SKIP() << "testdata datasets not found";
  run("-q create_image_classification_dataset -i '" + classes + "' -o '" + dir +
          "/ds' -c 1 -w 14 -g 12 -m trimming -s false -f1 train.csv",
      dir + "/create.log");
  const auto rows = ds::read_csv_file(dir + "/ds/train.csv");
  ASSERT_EQ(rows.size(), 10u);  // header + 9
  EXPECT_EQ(rows[0].cells, (std::vector<std::string>{"x:image", "y:label"}));
  EXPECT_EQ(rows[4].cells.at(0).rfind("./n4/4_", 0), 0u) << rows[4].cells.at(0);
  EXPECT_EQ(rows[4].cells.at(1), "1");
  EXPECT_EQ(rows[9].cells.at(1), "2");
  ds::DecodedImage png = ds::read_image(dir + "/ds/" + rows[9].cells.at(0));
  EXPECT_EQ(png.shape(), (nn::Shape{1, 12, 14}));

  run("-q conv_dataset -S '" + dir + "/ds/train.csv' '" + dir + "/cache'", dir + "/conv.log");
  run("-q conv_dataset -N '" + dir + "/ds/train.csv' '" + dir + "/cache_n'", dir + "/conv_n.log");
  auto csv = ds::CsvDataSource::open(dir + "/ds/train.csv");
  auto cache = ds::CacheDataSource::open(dir + "/cache");
  auto cache_n = ds::CacheDataSource::open(dir + "/cache_n", ds::CacheDatasetOptions{false});
  ASSERT_EQ(cache->size(), 9);
  ASSERT_EQ(cache->variables(), csv->variables());
  ASSERT_EQ(cache->shapes(), csv->shapes());
  ASSERT_EQ(cache_n->shapes(), csv->shapes());
  const std::vector<int64_t> order = cache->original_order();
  EXPECT_NE(order, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));  // shuffled (RandomState(313))
  std::vector<float> xa(14 * 12), ya(1), xb(14 * 12), yb(1), xc(14 * 12), yc(1);
  for (int64_t p = 0; p < 9; ++p) {
    csv->load(order[size_t(p)], {xa.data(), ya.data()});
    cache->load(p, {xb.data(), yb.data()});
    cache_n->load(order[size_t(p)], {xc.data(), yc.data()});
    EXPECT_EQ(xa, xb) << "cache position " << p;
    EXPECT_EQ(ya, yb) << "cache position " << p;
    // -N stores float64 already divided by 255: read raw, equal to the normalised CSV values (row order).
    for (size_t i = 0; i < xa.size(); ++i) EXPECT_FLOAT_EQ(xc[i], xa[i]);
  }
}

}  // namespace

// Found by fuzz_image: a JPEG Huffman table declaring 1043 codes made stb_image 2.27 write past its
// 257-entry size list; it is refused before decoding.
TEST(DecodeImage, JpegHuffmanTableWithTooManyCodesIsRefused) {
  const std::string path = std::string(NN_SOURCE_DIR) + "/tests/data/fuzz_jpeg_huffman_overflow.jpg";
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty()) << path;
  try {
    (void)nn::formats::datasets::decode_image(bytes, "x.jpg");
    ADD_FAILURE() << "expected an nn::Error";
  } catch (const nn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'x.jpg': corrupt JPEG: a Huffman table"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1043 codes"), std::string::npos) << e.what();
  }
}
