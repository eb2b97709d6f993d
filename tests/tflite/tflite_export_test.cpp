// TFLite export options read back from the written bytes: dynamic batch (shape_signature), --channel-last.
#include <gtest/gtest.h>

#include <filesystem>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "formats/tflite/tflite_export.hpp"
#include "formats/tflite/tflite_import.hpp"
#include "formats/tflite/tflite_reader.hpp"
#include "nn/core/error.hpp"

namespace fs = std::filesystem;

namespace {

nn::ir::Model net(const std::string& name) {
  return nn::formats::expand_model(nn::formats::load_model({(fs::path(NN_TFLITE_TEST_NETS) / name).string()}));
}

const tflite::TensorT& tensor(const tflite::ModelT& m, int index) {
  return *m.subgraphs[0]->tensors.at(size_t(index));
}

int builtin(const tflite::ModelT& m, const tflite::OperatorT& op) {
  return m.operator_codes.at(op.opcode_index)->builtin_code;
}

TEST(TfliteExport, DynamicBatchShapeSignature) {
  nn::formats::TfliteExportOptions o;
  o.dynamic_batch = true;
  auto m = nn::formats::tflite_io::parse_tflite(nn::formats::build_tflite_model(net("shapes.nntxt"), o));
  const auto& g = *m->subgraphs[0];
  const auto& in = tensor(*m, g.inputs.at(0));
  EXPECT_EQ(in.shape, (std::vector<int32_t>{1, 4, 4, 3}));
  EXPECT_EQ(in.shape_signature, (std::vector<int32_t>{-1, 4, 4, 3}));
  const auto& out = tensor(*m, g.outputs.at(0));
  EXPECT_EQ(out.shape, (std::vector<int32_t>{1, 54}));
  EXPECT_EQ(out.shape_signature, (std::vector<int32_t>{-1, 54}));
  int reshapes = 0, slices = 0;
  for (const auto& op : g.operators) {
    if (builtin(*m, *op) == 22) {  // RESHAPE: target and option with -1 for the batch
      ++reshapes;
      EXPECT_EQ(op->builtin_options.AsReshapeOptions()->new_shape, (std::vector<int32_t>{-1, 48}));
      const auto& target = m->buffers.at(tensor(*m, op->inputs.at(1)).buffer)->data;
      ASSERT_EQ(target.size(), 8u);
      EXPECT_EQ(int32_t(target[0] | target[1] << 8 | target[2] << 16 | unsigned(target[3]) << 24), -1);
    }
    if (builtin(*m, *op) == 45) {  // STRIDED_SLICE: the batch axis masked
      ++slices;
      EXPECT_EQ(op->builtin_options.AsStridedSliceOptions()->begin_mask & 1, 1);
      EXPECT_EQ(op->builtin_options.AsStridedSliceOptions()->end_mask & 1, 1);
    }
  }
  EXPECT_EQ(reshapes, 1);
  EXPECT_EQ(slices, 1);
}

TEST(TfliteExport, DynamicBatchImportsWithMinusOne) {
  nn::formats::TfliteExportOptions o;
  o.dynamic_batch = true;
  nn::ir::Model back = nn::formats::import_tflite_bytes(nn::formats::build_tflite_model(net("shapes.nntxt"), o));
  const nn::ir::Network& n = back.networks.at(0);
  EXPECT_EQ(n.batch_size, 1);
  EXPECT_EQ(n.find_variable(back.executors[0].data_variable.at(0).variable_name)->shape, (nn::Shape{-1, 4, 4, 3}));
  EXPECT_EQ(n.find_variable(back.executors[0].output_variable.at(0).variable_name)->shape, (nn::Shape{-1, 54}));
}

TEST(TfliteExport, DynamicBatchNeedsABatchDimension) {
  nn::ir::Model m = net("shapes.nntxt");
  for (auto& v : m.networks[0].variables)
    if (!v.shape.empty() && v.shape[0] == -1) v.shape[0] = 2;
  nn::formats::TfliteExportOptions o;
  o.dynamic_batch = true;
  try {
    nn::formats::build_tflite_model(m, o);
    FAIL() << "no error";
  } catch (const nn::Error& e) {
    EXPECT_EQ(e.code(), nn::ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("no -1 batch dimension"), std::string::npos) << e.what();
  }
}

TEST(TfliteExport, ChannelLastKeepsNhwcWithoutTransposes) {
  nn::formats::TfliteExportOptions o;
  o.channel_last = true;
  auto m = nn::formats::tflite_io::parse_tflite(nn::formats::build_tflite_model(net("channel_last.nntxt"), o));
  const auto& g = *m->subgraphs[0];
  EXPECT_EQ(tensor(*m, g.inputs.at(0)).shape, (std::vector<int32_t>{1, 8, 8, 3}));
  EXPECT_EQ(tensor(*m, g.outputs.at(1)).shape, (std::vector<int32_t>{1, 4, 4, 4}));
  std::vector<int> ops;
  for (const auto& op : g.operators) ops.push_back(builtin(*m, *op));
  // CONV_2D (BatchNormalization folded, ReLU fused), MAX_POOL_2D, PAD + CONV_2D, PAD + AVERAGE_POOL_2D, FC.
  EXPECT_EQ(ops, (std::vector<int>{3, 17, 34, 3, 34, 1, 9}));
  // The first convolution's OHWI filter is the NNP's (O, kh, kw, C) weight scaled by the folded BN.
  EXPECT_EQ(tensor(*m, g.operators[0]->inputs.at(1)).shape, (std::vector<int32_t>{4, 3, 3, 3}));
}

}  // namespace

namespace {

// fizzbuzz_model (TF2 Keras, MLIR converter): input [1, 7] with shape_signature [-1, 7].
TEST(TfliteImport, ShapeSignatureBatchBecomesMinusOne) {
  const fs::path model = fs::path(NN_TESTDATA_DIR) / "tflite" / "fizzbuzz_model.tflite";
  if (!fs::exists(model)) GTEST_SKIP() << "testdata missing";
  nn::ir::Model m = nn::formats::import_tflite(model.string());
  const nn::ir::Network& n = m.networks.at(0);
  EXPECT_EQ(n.batch_size, 1);
  EXPECT_EQ(n.find_variable(m.executors[0].data_variable.at(0).variable_name)->shape, (nn::Shape{-1, 7}));
  EXPECT_EQ(n.find_variable(m.executors[0].output_variable.at(0).variable_name)->shape, (nn::Shape{-1, 4}));
}

// xor_model_toco (TOCO) has no shape_signature: the batch stays fixed.
TEST(TfliteImport, NoShapeSignatureKeepsTheBatch) {
  const fs::path model = fs::path(NN_TESTDATA_DIR) / "tflite" / "xor_model_toco.tflite";
  if (!fs::exists(model)) GTEST_SKIP() << "testdata missing";
  nn::ir::Model m = nn::formats::import_tflite(model.string());
  EXPECT_EQ(m.networks.at(0).find_variable(m.executors[0].data_variable.at(0).variable_name)->shape,
            (nn::Shape{1, 2}));
}

}  // namespace
