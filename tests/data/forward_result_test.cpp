// ForwardResultWriter and result tables: output_result.csv columns, per-sample CSV/PNG files, paths.
#include "formats/datasets/forward_result.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/image_io.hpp"
#include "test_data_util.hpp"

namespace ds = nn::formats::datasets;
namespace fs = std::filesystem;

TEST(ForwardResult, TableFromCsvRewritesPathsLikeUpstream) {
  const std::string dir = nn::test::scratch_dir("table");
  nn::test::write_text(dir + "/d.csv",
                       "x:image,#note,y:label\r\n.\\a\\0.png,.\\keep\\me,10\r\n\r\n./b/1.png,n,1.5\r\n");
  ds::ResultTable t = ds::result_table_from_csv(dir + "/d.csv", false);
  EXPECT_EQ(t.header, (std::vector<std::string>{"x:image", "#note", "y:label"}));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"./a/0.png", ".\\keep\\me", "10"}));
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"./b/1.png", "n", "1.5"}));
  EXPECT_EQ(t.order, (std::vector<int64_t>{0, 1}));
  ds::ResultTable abs = ds::result_table_from_csv(dir + "/d.csv", true);
  EXPECT_EQ(abs.rows[0][0], fs::path(dir).lexically_normal().string() + "/a/0.png");
}

TEST(ForwardResult, ColumnsFilesAndWrappedSamples) {
  const std::string out = nn::test::scratch_dir("writer");
  ds::ResultTable t;
  t.header = {"x:image", "y:label"};
  t.rows = {{"./a.png", "1"}, {"./b.png", "2"}, {"./c.png", "3"}};
  t.order = {0, 1, 2};
  ds::ForwardResultWriter w(t, out, "output_result.csv", "", false);
  std::vector<float> vec{0.1f, 0.25f, 3.5e-05f};
  std::vector<float> scalar{2.0f};
  std::vector<float> matrix{1, 2, 3, 4, 5, 6};
  std::vector<float> rgb(3 * 2 * 2, 0.5f), gray(1 * 2 * 2, 2.0f), multi(2 * 2 * 2, 0.0f);
  rgb[0] = 1.0f;
  multi[4] = 1.0f;
  for (int64_t i = 0; i < 4; ++i) {  // sample 3 is the wrapped tail of the last batch
    w.add_sample(i, {{"y'", "", {3}, vec.data()},
                     {"s", "", {}, scalar.data()},
                     {"m", "", {2, 3}, matrix.data()},
                     {"img", "", {3, 2, 2}, rgb.data()},
                     {"g", "", {1, 2, 2}, gray.data()},
                     {"c", "", {2, 2, 2}, multi.data()},
                     {"typed", "image", {3}, vec.data()}});
  }
  w.close();
  std::string csv = nn::test::read_text(out + "/output_result.csv");
  auto rows = ds::parse_csv(csv, "out");
  ASSERT_EQ(rows.size(), 4u) << csv;
  EXPECT_EQ(rows[0].cells, (std::vector<std::string>{"x:image", "y:label", "y'__0", "y'__1", "y'__2", "s", "m",
                                                     "img", "g", "c__0", "c__1"}));
  EXPECT_EQ(rows[1].cells, (std::vector<std::string>{"./a.png", "1", "0.1", "0.25", "3.5e-05", "2.0",
                                                     "./2_0000/0.csv", "./3_0000/0.png", "./4_0000/0.png",
                                                     "./5_0000/0_0.png", "./5_0000/1_0.png"}));
  EXPECT_EQ(rows[3].cells[6], "./2_0000/2.csv");
  EXPECT_EQ(nn::test::read_text(out + "/2_0000/1.csv"), "1.0,2.0,3.0\n4.0,5.0,6.0\n");
  EXPECT_TRUE(fs::exists(out + "/2_0000/3.csv"));  // files of wrapped samples are written, as upstream
  ds::DecodedImage img = ds::read_image(out + "/3_0000/0.png");
  EXPECT_EQ(img.shape(), (nn::Shape{3, 2, 2}));
  EXPECT_EQ(img.pixels[0], 255);
  EXPECT_EQ(img.pixels[1], 127);  // 0.5 * 255 = 127.5 truncated
  ds::DecodedImage g = ds::read_image(out + "/4_0000/0.png");
  EXPECT_EQ(g.shape(), (nn::Shape{1, 2, 2}));
  EXPECT_EQ(g.pixels[0], 255);  // clipped
  ds::DecodedImage c1 = ds::read_image(out + "/5_0000/1_0.png");
  EXPECT_EQ(c1.pixels[0], 255);
}

TEST(ForwardResult, StdHeaderAndResultOutdir) {
  const std::string out = nn::test::scratch_dir("writer_std");
  ds::ResultTable t{{"x"}, {{"1"}}, {0}};
  ds::ForwardResultWriter w(t, out, "r.csv", "res", true);
  std::vector<float> one{0.5f}, m{1, 2};
  w.add_sample(0, {{"y", "", {1}, one.data()}, {"m", "", {1, 2}, m.data()}});
  w.close();
  EXPECT_EQ(nn::test::read_text(out + "/r.csv"),
            "x,Uncertainty(Std),Uncertainty(Std)\n1,0.5,./res/1_0000/0.csv\n");
  EXPECT_TRUE(fs::exists(out + "/res/1_0000/0.csv"));
}
