// ONNX export options: -d parsing and range errors, unsupported functions listed at once, support table.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>

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
  EXPECT_EQ(d.table, 17);
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

TEST(OnnxExport, DynamicBatchKeepsSymbolicBatchDim) {
  const fs::path model = fs::path(NN_SOURCE_DIR) / "sample_models/mnist_lenet/result2.nnp";
  if (!fs::exists(model)) GTEST_SKIP() << "sample model missing";
  auto m = nn::formats::expand_model(nn::formats::load_model({model.string()}));
  nn::formats::OnnxExportOptions options;
  options.dynamic_batch = true;
  onnx::ModelProto proto;
  nn::formats::build_onnx_model(m, options, &proto);
  nn::formats::check_onnx_model(proto, "dynamic lenet");
  const auto& input = proto.graph().input(0).type().tensor_type().shape();
  EXPECT_EQ(input.dim(0).dim_param(), "batch");
  EXPECT_EQ(input.dim(1).dim_value(), 1);
  EXPECT_EQ(proto.graph().output(0).type().tensor_type().shape().dim(0).dim_param(), "batch");
  // Every Reshape target keeps the batch free (-1) instead of the traced 1.
  std::map<std::string, const onnx::TensorProto*> initializers;
  for (const auto& t : proto.graph().initializer()) initializers[t.name()] = &t;
  int reshapes = 0;
  for (const auto& node : proto.graph().node()) {
    if (node.op_type() != "Reshape" || !initializers.count(node.input(1))) continue;
    const std::string& raw = initializers[node.input(1)]->raw_data();
    int64_t first = 0;
    std::memcpy(&first, raw.data(), sizeof(first));
    EXPECT_EQ(first, -1) << "Reshape " << node.name();
    ++reshapes;
  }
  EXPECT_GT(reshapes, 0);
}

TEST(OnnxExport, NewRulesAreInTheSupportTable) {
  auto nine = nn::formats::onnx_exportable_functions(9);
  auto eleven = nn::formats::onnx_exportable_functions(11);
  for (const char* f : {"GELU", "Mish", "BinarySigmoid", "BinaryTanh", "Where", "Embed", "LayerNormalization",
                        "InstanceNormalization", "GroupNormalization"})
    EXPECT_TRUE(std::binary_search(nine.begin(), nine.end(), f)) << f;
  for (const char* f : {"Flip", "CumSum", "Unpooling"}) {
    EXPECT_FALSE(std::binary_search(nine.begin(), nine.end(), f)) << f;
    EXPECT_TRUE(std::binary_search(eleven.begin(), eleven.end(), f)) << f;
  }
}

}  // namespace
