// NNB writer pieces: buffer sharing, fixed-point and SIGN encoding, API levels, settings, supported set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "formats/nnb/nnb_function_table.hpp"
#include "formats/nnb/nnb_settings.hpp"
#include "formats/nnb/nnb_support.hpp"
#include "formats/nnb/nnb_to_ir.hpp"
#include "formats/nnb/nnb_writer.hpp"
#include "nn/core/error.hpp"
#include "nnb_test_util.hpp"

namespace nn::formats::nnb::test {

namespace {

// x(-1,4) -> Affine(W (4,3), b (3)) -> y(-1,3) -> ReLU -> z
nn::ir::Model tiny_model() {
  nn::ir::Model m;
  nn::ir::Network n;
  n.name = "net";
  n.batch_size = 1;
  n.variables = {{"x", "Buffer", {}, {-1, 4}, {}},
                 {"W", "Parameter", {}, {4, 3}, {}},
                 {"b", "Parameter", {}, {3}, {}},
                 {"y", "Buffer", {}, {-1, 3}, {}},
                 {"z", "Buffer", {}, {-1, 3}, {}}};
  nn::ir::Function affine;
  affine.name = "fc";
  affine.type = "Affine";
  affine.inputs = {"x", "W", "b"};
  affine.outputs = {"y"};
  affine.attrs.set("base_axis", int64_t(1));
  nn::ir::Function relu;
  relu.name = "relu";
  relu.type = "ReLU";
  relu.inputs = {"y"};
  relu.outputs = {"z"};
  n.functions = {affine, relu};
  m.networks = {n};
  std::vector<float> w(12);
  for (size_t k = 0; k < w.size(); ++k) w[k] = float(k) * 0.25f - 1.5f;
  m.parameters = {{"W", {4, 3}, w, false}, {"b", {3}, {0.5f, -0.25f, 3.0f}, false}};
  m.executors = {net_executor("x", "z")};
  return m;
}

}  // namespace

TEST(NnbWriter, BufferPlanSharesNonOverlappingLifetimes) {
  std::vector<int> assignment;
  // b0 live at f0; b1 at f0-f1; b2 at f1-f2; b3 at f2.
  const auto actual = plan_buffers({10, 20, 5, 20}, {{0, 1}, {1, 2}, {2, 3}}, assignment);
  EXPECT_EQ(actual, (std::vector<int64_t>{10, 20}));
  EXPECT_EQ(assignment, (std::vector<int>{0, 1, 0, 1}));
}

TEST(NnbWriter, TinyModelLayout) {
  MemoryPlan plan;
  const NnbNetwork n = build_nnb(tiny_model(), NnbExportOptions{}, &plan);
  EXPECT_EQ(n.version, 2u);
  EXPECT_EQ(int(n.api_level), newest_api_level());
  ASSERT_EQ(n.functions.size(), 2u);
  EXPECT_EQ(n.functions[0].type, 0);   // Affine
  EXPECT_EQ(n.functions[1].type, 14);  // ReLU
  EXPECT_EQ(n.variables[0].shape, (std::vector<int32_t>{1, 4}));
  // W stored output-major: element (r=0, c=1) of the (4,3) matrix comes second after (0,0) of column 0.
  float stored[12];
  std::memcpy(stored, n.variables[1].data.data(), sizeof stored);
  EXPECT_FLOAT_EQ(stored[1], -1.5f + 0.25f * 3);
  EXPECT_EQ(plan.weight_bytes[0], 60);
  // Round trip through the runnable model restores nnabla's layout.
  const nn::ir::Model back = nnb_to_model(n);
  EXPECT_EQ(back.parameters[0].data, tiny_model().parameters[0].data);
}

TEST(NnbWriter, Fixed16ParametersDeriveTheirPointPosition) {
  NnbExportOptions o;
  o.settings.variables["W"] = parse_variable_type("FIXED16", "test");
  o.settings.variables["b"] = parse_variable_type("FIXED8_4", "test");
  const NnbNetwork n = build_nnb(tiny_model(), o);
  // max |W| = 1.5 -> ib = ceil(log2 1.5) + 1 = 2 -> fp = 14
  EXPECT_EQ(n.variables[1].type, DataType::kInt16);
  EXPECT_EQ(n.variables[1].fp_pos, 14);
  EXPECT_EQ(n.variables[1].data.size(), 24u);
  EXPECT_EQ(n.variables[2].fp_pos, 4);
  // b = 3.0 * 16 = 48 as int8
  EXPECT_EQ(int8_t(n.variables[2].data[2]), 48);
  const nn::ir::Model back = nnb_to_model(n);
  for (size_t k = 0; k < 12; ++k)
    EXPECT_NEAR(back.parameters[0].data[k], tiny_model().parameters[0].data[k], 1.0 / (1 << 14));
}

// nnabla-c-runtime's BatchMatmul accumulates into its output: that output never reuses the buffer of an
// earlier variable (x and r1 are dead by then and would otherwise lend theirs).
TEST(NnbWriter, BatchMatmulOutputGetsABufferOfItsOwn) {
  nn::ir::Model m = tiny_model();
  nn::ir::Network& n = m.networks[0];
  n.variables = {{"x", "Buffer", {}, {-1, 2, 3}, {}},
                 {"r1", "Buffer", {}, {-1, 2, 3}, {}},
                 {"r2", "Buffer", {}, {-1, 2, 3}, {}},
                 {"y", "Buffer", {}, {-1, 2, 2}, {}},
                 {"z", "Buffer", {}, {-1, 2, 2}, {}}};
  auto op = [](const char* name, const char* type, std::vector<std::string> in, std::string out) {
    nn::ir::Function f;
    f.name = name;
    f.type = type;
    f.inputs = std::move(in);
    f.outputs = {std::move(out)};
    return f;
  };
  nn::ir::Function bmm = op("bmm", "BatchMatmul", {"r2", "r2"}, "y");
  bmm.attrs.set("transpose_a", false);
  bmm.attrs.set("transpose_b", true);
  n.functions = {op("relu1", "ReLU", {"x"}, "r1"), op("relu2", "ReLU", {"r1"}, "r2"), bmm,
                 op("relu3", "ReLU", {"y"}, "z")};
  m.parameters.clear();
  m.executors[0].output_variable = {{"z", "", "z"}};
  const NnbNetwork nnb = build_nnb(m, NnbExportOptions{});
  const int32_t y_buffer = nnb.variables[3].data_index;
  for (int v : {0, 1, 2}) EXPECT_NE(nnb.variables[size_t(v)].data_index, y_buffer) << "variable " << v;
}

TEST(NnbWriter, FixedBufferNeedsPointPosition) {
  NnbExportOptions o;
  o.settings.variables["y"] = parse_variable_type("FIXED8", "test");
  try {
    build_nnb(tiny_model(), o);
    FAIL();
  } catch (const nn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("fp_pos must be specified for Buffer Variable"), std::string::npos);
  }
  o.settings.variables["y"] = parse_variable_type("FIXED8_3", "test");
  const NnbNetwork n = build_nnb(tiny_model(), o);
  EXPECT_EQ(n.variables[3].fp_pos, 3);
  // The runnable model rounds y to 1/8 after the Affine.
  const nn::ir::Model m = nnb_to_model(n);
  EXPECT_EQ(m.networks[0].functions[1].type, "FixedPointQuantize");
}

TEST(NnbWriter, Version3BufferSizesAreBytes) {
  NnbExportOptions o;
  o.version = 3;
  o.settings.variables["y"] = parse_variable_type("FIXED16_8", "test");
  const NnbNetwork n = build_nnb(tiny_model(), o);
  EXPECT_EQ(n.version, 3u);
  // x 16 bytes, y 6 bytes (FIXED16 from the settings), z 12 bytes (unlisted: 4 bytes each)
  std::vector<uint32_t> sorted = n.buffers;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted.back(), 16u);
}

TEST(NnbWriter, LowerApiLevelUsesOlderIdsAndDropsArguments) {
  NnbExportOptions o;
  o.api_level = 1;
  const NnbNetwork n = build_nnb(tiny_model(), o);
  EXPECT_EQ(n.api_level, 1u);
  EXPECT_EQ(n.functions[1].type, 14);
  EXPECT_EQ(function_table(1).at("Convolution").id, 1);
  EXPECT_EQ(function_table(newest_api_level()).at("Convolution").id, 265);
  EXPECT_EQ(function_table(20).at("Mul2").id, 34);
  EXPECT_EQ(function_table(21).at("Mul2").id, 309);
}

TEST(NnbWriter, SupportedFunctionsComeFromTheTable) {
  const auto newest = nnb_supported_functions(-1);
  EXPECT_TRUE(std::is_sorted(newest.begin(), newest.end()));
  EXPECT_TRUE(std::count(newest.begin(), newest.end(), "Convolution"));
  EXPECT_TRUE(std::count(newest.begin(), newest.end(), "Trilu"));
  EXPECT_FALSE(std::count(newest.begin(), newest.end(), "GlobalAveragePooling"));
  const auto level1 = nnb_supported_functions(1);
  EXPECT_FALSE(std::count(level1.begin(), level1.end(), "AddN"));  // level 10
  EXPECT_TRUE(std::count(level1.begin(), level1.end(), "Affine"));
}

TEST(NnbSettings, ParsesTypesAndImplements) {
  const auto path = std::filesystem::temp_directory_path() / "nnb_settings_test.yaml";
  std::ofstream(path) << "functions:\n  fc:\n    implement: 3\nvariables:\n  W: FIXED16_12\n  'y': FLOAT32\n";
  const NnbSettings s = read_settings(path.string());
  EXPECT_EQ(s.implement.at("fc"), 3);
  EXPECT_EQ(s.variables.at("W").type, DataType::kInt16);
  EXPECT_EQ(*s.variables.at("W").fp_pos, 12);
  std::ofstream(path) << "variables:\n  W: [oops\n";
  try {
    read_settings(path.string());
    FAIL();
  } catch (const nn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("invalid YAML"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(NnbSettings, TemplateListsFunctionsThenVariables) {
  const std::string t = settings_template(tiny_model().networks[0], "FLOAT32");
  EXPECT_EQ(t,
            "functions:\n  fc:\n    implement: 0\n  relu:\n    implement: 0\nvariables:\n  x: FLOAT32\n"
            "  W: FLOAT32\n  b: FLOAT32\n  y: FLOAT32\n  z: FLOAT32\n");
}

}  // namespace nn::formats::nnb::test

namespace nn::formats::nnb::test {

TEST(NnbWriter, EveryMissingFunctionIsListedAtOnce) {
  nn::ir::Model m = tiny_model();
  m.networks[0].functions[0].type = "Gather";
  m.networks[0].functions[1].type = "BoolFill";
  NnbExportOptions o;
  o.api_level = 1;
  try {
    build_nnb(m, o);
    FAIL();
  } catch (const nn::Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    const std::string what = e.what();
    EXPECT_NE(what.find("network 'net': 2 function(s) cannot be converted to NNB: "
                        "function 'fc' (Gather): not supported in current API Level(=1); "
                        "function 'relu' (BoolFill): not supported in current API Level(=1)"),
              std::string::npos)
        << what;
  }
}

}  // namespace nn::formats::nnb::test
