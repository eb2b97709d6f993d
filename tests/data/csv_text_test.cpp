// CSV text helpers: parsing with line numbers, Python float parsing/printing, nnabla path joining.
#include "formats/datasets/csv_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "formats/datasets/npy.hpp"
#include "nn/core/error.hpp"

namespace ds = nn::formats::datasets;

TEST(CsvText, ParsesQuotesLineEndsAndBom) {
  auto rows =
      ds::parse_csv("\xEF\xBB\xBFx:image,y\r\n\"a,b\",1\r\n\r\n\"say \"\"hi\"\"\",\"multi\nline\"\n3,", "t.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].cells, (std::vector<std::string>{"x:image", "y"}));
  EXPECT_EQ(rows[0].line, 1);
  EXPECT_EQ(rows[1].cells, (std::vector<std::string>{"a,b", "1"}));
  EXPECT_EQ(rows[1].line, 2);
  EXPECT_EQ(rows[2].cells, (std::vector<std::string>{"say \"hi\"", "multi\nline"}));
  EXPECT_EQ(rows[2].line, 4);
  EXPECT_EQ(rows[3].cells, (std::vector<std::string>{"3", ""}));
  EXPECT_EQ(rows[3].line, 6);
}

TEST(CsvText, UnterminatedQuoteNamesFileAndLine) {
  try {
    ds::parse_csv("a\n\"b\n", "bad.csv");
    FAIL() << "no error";
  } catch (const nn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:2: unterminated"), std::string::npos) << e.what();
  }
}

TEST(CsvText, PythonFloatParsing) {
  double v;
  EXPECT_TRUE(ds::parse_python_float(" 1.5 ", v));
  EXPECT_EQ(v, 1.5);
  EXPECT_TRUE(ds::parse_python_float("-.5e-3", v));
  EXPECT_DOUBLE_EQ(v, -0.0005);
  EXPECT_TRUE(ds::parse_python_float("1_000", v));
  EXPECT_EQ(v, 1000);
  EXPECT_TRUE(ds::parse_python_float("NaN", v));
  EXPECT_TRUE(std::isnan(v));
  EXPECT_TRUE(ds::parse_python_float("-Infinity", v));
  EXPECT_TRUE(std::isinf(v) && v < 0);
  for (const char* bad : {"", ".", "1e", "0x10", "./a.png", "1_", "1__0", "e5", "10,"})
    EXPECT_FALSE(ds::parse_python_float(bad, v)) << bad;
}

TEST(CsvText, Float32PrintsLikeNumpyStr) {
  EXPECT_EQ(ds::format_float32(0.1f), "0.1");
  EXPECT_EQ(ds::format_float32(1.0f), "1.0");
  EXPECT_EQ(ds::format_float32(-2.5f), "-2.5");
  EXPECT_EQ(ds::format_float32(3.5e-05f), "3.5e-05");
  EXPECT_EQ(ds::format_float32(0.0001f), "0.0001");
  EXPECT_EQ(ds::format_float32(1e16f), "1e+16");
  EXPECT_EQ(ds::format_float32(123456789.0f), "123456790.0");
  EXPECT_EQ(ds::format_float32(0.0f), "0.0");
  EXPECT_EQ(ds::format_float32(NAN), "nan");
  EXPECT_EQ(ds::format_float32(-INFINITY), "-inf");
  EXPECT_EQ(ds::format_float32(1.0f / 3.0f), "0.33333334");
  EXPECT_EQ(ds::format_float64(0.1), "0.1");
  EXPECT_EQ(ds::format_float64(1.0 / 3.0), "0.3333333333333333");
}

TEST(CsvText, CsvRowQuotesLikePython) {
  EXPECT_EQ(ds::format_csv_row({"a", "b,c", "say \"x\"", ""}), "a,\"b,c\",\"say \"\"x\"\"\",");
}

TEST(CsvText, ComputeFullPathAsNnabla) {
  EXPECT_EQ(ds::compute_full_path(".", ".\\a\\0_0085.png"), "./a/0_0085.png");
  EXPECT_EQ(ds::compute_full_path(".", "./valid/0000.csv"), "./valid/0000.csv");
  EXPECT_EQ(ds::compute_full_path("/data/set", "x/y.png"), "/data/set/x/y.png");
  EXPECT_EQ(ds::compute_full_path("/data", "/abs/y.png"), "/abs/y.png");
  EXPECT_EQ(ds::resolve_data_path("/d", ".\\train\\p.csv"), "/d/train/p.csv");
  EXPECT_EQ(ds::lower_extension("a.b/c.PNG"), ".png");
  EXPECT_EQ(ds::lower_extension("a.b/c"), "");
  EXPECT_EQ(ds::parent_dir("x.csv"), ".");
}

// Found by fuzz_csv: NPY headers whose shape holds bytes that are no integer (an uncaught
// std::invalid_argument) or has no closing ')' (the scan restarted forever, growing the shape without end),
// and a key with no value after it (read one byte past the header).
TEST(NpyRecord, FuzzedShapesAreErrors) {
  for (const char* file :
       {"fuzz_bad_npy_shape.npy", "fuzz_npy_shape_unclosed.npy", "fuzz_npy_header_key_without_value.npy"}) {
    const std::string path = std::string(NN_SOURCE_DIR) + "/tests/data/" + file;
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(bytes.empty()) << path;
    size_t offset = 0;
    try {
      nn::formats::datasets::read_npy(bytes, offset, "fuzz.npy");
      ADD_FAILURE() << file << ": expected an nn::Error";
    } catch (const nn::Error& e) {
      EXPECT_NE(std::string(e.what()).find("'fuzz.npy'"), std::string::npos) << e.what();
    }
  }
}

namespace {

// A version `major` NPY record with this header dict and data bytes (the header is not padded).
std::string npy_bytes(const std::string& dict, const std::string& data, int major = 1) {
  std::string out("\x93NUMPY", 6);
  out += char(major);
  out += char(0);
  out += char(dict.size() & 0xff);
  out += char(dict.size() >> 8);
  if (major > 1) out += std::string(2, '\0');
  return out + dict + data;
}

std::string npy_error(const std::string& bytes) {
  try {
    ds::read_npy_file(bytes, "t.npy");
  } catch (const nn::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// What infer and convert --verify read: float16 and uint64 data, big-endian data, version 3.0 headers.
TEST(NpyRecord, ReadsHalfUint64AndBigEndian) {
  const std::string half("\x00\x3c\x00\xc0", 4);  // 1.0, -2.0
  auto a =
      ds::read_npy_file(npy_bytes("{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", half), "t.npy");
  EXPECT_EQ(a.values, (std::vector<double>{1.0, -2.0}));
  const std::string u64("\x05\0\0\0\0\0\0\0", 8);
  a = ds::read_npy_file(npy_bytes("{'descr': '<u8', 'fortran_order': False, 'shape': (), }", u64, 3), "t.npy");
  EXPECT_EQ(a.values, (std::vector<double>{5.0}));
  EXPECT_TRUE(a.shape.empty());
  const std::string be("\x3f\x80\x00\x00", 4);  // 1.0f big-endian
  a = ds::read_npy_file(npy_bytes("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", be), "t.npy");
  EXPECT_EQ(a.values, (std::vector<double>{1.0}));
}

// The checks the apps' own reader had: a whole file holds one record and nothing after it, versions 1-3 only,
// a known byte order, fortran_order True or False.
TEST(NpyRecord, WholeFileChecks) {
  const std::string f4(4, '\0');
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
  EXPECT_EQ(npy_error(npy_bytes(dict, f4)), "");
  EXPECT_NE(npy_error(npy_bytes(dict, f4 + "x")).find("'t.npy': 1 bytes after the NPY data"), std::string::npos);
  EXPECT_NE(npy_error(npy_bytes(dict, f4, 4)).find("'t.npy': unsupported NPY version 4"), std::string::npos);
  EXPECT_NE(npy_error(npy_bytes(dict, f4, 0)).find("unsupported NPY version 0"), std::string::npos);
  EXPECT_NE(npy_error(npy_bytes("{'descr': 'xf4', 'fortran_order': False, 'shape': (1,), }", f4))
                .find("unsupported NPY dtype 'xf4'"),
            std::string::npos);
  EXPECT_NE(npy_error(npy_bytes("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }", f4))
                .find("bad NPY fortran_order 'Maybe'"),
            std::string::npos);
  EXPECT_NE(npy_error(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f4))
                .find("NPY data shorter than its shape (2,)"),
            std::string::npos);
}
