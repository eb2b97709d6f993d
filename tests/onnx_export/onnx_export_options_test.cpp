// ONNX export options: -d parsing and range errors, unsupported functions listed at once, support table.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/onnx/export/onnx_export.hpp"
#include "formats/onnx/export/onnx_export_support.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "nn/core/error.hpp"

namespace fs = std::filesystem;

namespace {

fs::path testdata(const std::string& rel) {
  const char* env = std::getenv("NN_TESTDATA_DIR");
  return fs::path(env && *env ? env : NN_TESTDATA_DIR) / rel;
}

TEST(OnnxOpset, ParsesDialectsAndTables) {
  auto d = nn::formats::parse_onnx_opset("");
  EXPECT_EQ(d.table, 11);
  EXPECT_EQ(d.version, 11);
  d = nn::formats::parse_onnx_opset("opset_13");
  EXPECT_EQ(d.table, 13);
  d = nn::formats::parse_onnx_opset("opset_17");
  EXPECT_EQ(d.table, 13);
  EXPECT_EQ(d.version, 17);
  d = nn::formats::parse_onnx_opset("opset_8");
  EXPECT_EQ(d.table, 7);
  EXPECT_EQ(d.version, 8);
  d = nn::formats::parse_onnx_opset("opset_snpe");
  EXPECT_EQ(d.version, 6);
  EXPECT_EQ(d.dialect, 1);
  d = nn::formats::parse_onnx_opset("opset_tensorrt");
  EXPECT_EQ(d.version, 11);
  EXPECT_EQ(d.dialect, 2);
}

TEST(OnnxOpset, RejectsOutOfRangeAndUnknown) {
  try {
    nn::formats::parse_onnx_opset("opset_18");
    FAIL();
  } catch (const nn::Error& e) {
    EXPECT_EQ(e.code(), nn::ErrorCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("out of range (supported: 6..17)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(nn::formats::parse_onnx_opset("opset_foo"), nn::Error);
  EXPECT_THROW(nn::formats::parse_onnx_opset("nnb_3"), nn::Error);
}

TEST(OnnxExport, ListsEveryUnsupportedFunction) {
  fs::path model = testdata("nnabla/converter_cases/N0001_boolfill_unsupported.nntxt");
  if (!fs::exists(model)) GTEST_SKIP() << "testdata missing";
  auto m = nn::formats::expand_model(nn::formats::load_model({model.string()}));
  onnx::ModelProto proto;
  try {
    nn::formats::build_onnx_model(m, {}, &proto);
    FAIL() << "BoolFill exported";
  } catch (const nn::Error& e) {
    EXPECT_EQ(e.code(), nn::ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("(BoolFill)"), std::string::npos) << e.what();
  }
}

TEST(OnnxExport, SupportTableGrowsWithOpset) {
  auto six = nn::formats::onnx_exportable_functions(6);
  auto thirteen = nn::formats::onnx_exportable_functions(13);
  EXPECT_TRUE(std::is_sorted(six.begin(), six.end()));
  EXPECT_LT(six.size(), thirteen.size());
  EXPECT_TRUE(std::binary_search(six.begin(), six.end(), "Affine"));
  EXPECT_FALSE(std::binary_search(six.begin(), six.end(), "Round"));
  EXPECT_TRUE(std::binary_search(thirteen.begin(), thirteen.end(), "Round"));
}

}  // namespace
