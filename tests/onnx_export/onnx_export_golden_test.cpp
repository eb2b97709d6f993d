// Exports every testdata model that has an upstream.onnx golden and compares ops and initializers with it.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/onnx/export/onnx_export.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "nn/core/error.hpp"

namespace fs = std::filesystem;

namespace {

fs::path testdata_dir() {
  if (const char* env = std::getenv("NN_TESTDATA_DIR"); env && *env) return env;
  return NN_TESTDATA_DIR;
}

struct GoldenCase {
  std::string name;  // golden dir relative to golden/
  std::vector<std::string> inputs;
};

// golden/<a>/<b>/<stem>_<ext>/ -> the model files upstream converted (generated parameters where it made them).
std::vector<GoldenCase> golden_cases() {
  std::vector<GoldenCase> cases;
  fs::path golden = testdata_dir() / "golden";
  if (!fs::exists(golden)) return cases;
  for (const auto& entry : fs::recursive_directory_iterator(golden)) {
    if (entry.path().filename() != "upstream.onnx") continue;
    fs::path dir = entry.path().parent_path();
    std::string rel = fs::relative(dir, golden).string();
    GoldenCase c{rel, {}};
    if (fs::exists(dir / "upstream_generated.nnp")) {
      c.inputs.push_back((dir / "upstream_generated.nnp").string());
    } else {
      size_t us = rel.rfind('_');
      fs::path model = testdata_dir() / (rel.substr(0, us) + "." + rel.substr(us + 1));
      if (!fs::exists(model)) continue;
      c.inputs.push_back(model.string());
      if (fs::exists(dir / "custom_params.h5")) c.inputs.push_back((dir / "custom_params.h5").string());
      if (fs::exists(model.parent_path() / "parameters.h5"))
        c.inputs.push_back((model.parent_path() / "parameters.h5").string());
    }
    cases.push_back(c);
  }
  std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return cases;
}

onnx::ModelProto read_onnx(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  onnx::ModelProto m;
  EXPECT_TRUE(m.ParseFromIstream(&in)) << path;
  return m;
}

std::vector<std::string> op_types(const onnx::ModelProto& m) {
  std::vector<std::string> ops;
  for (const auto& n : m.graph().node()) ops.push_back(n.op_type());
  return ops;
}

std::string join(const std::vector<std::string>& v) {
  std::ostringstream os;
  for (const auto& s : v) os << s << " ";
  return os.str();
}

// name -> dims of the initializers that are NNP parameters (helper tensors have generated names).
std::map<std::string, std::vector<int64_t>> parameter_dims(const onnx::ModelProto& m) {
  std::map<std::string, std::vector<int64_t>> dims;
  for (const auto& t : m.graph().initializer()) dims[t.name()] = {t.dims().begin(), t.dims().end()};
  return dims;
}

// Intended differences from upstream's goldens (tests/cli/function_info/onnx_known_differences.txt):
//   "golden <case>: ops <op types...>"   our node op types for that case (both opsets)
//   "golden <case>: refused <message>"   the export is refused with a message containing <message>
struct KnownDifference {
  std::string kind;  // "ops" or "refused"
  std::string value;
};

std::map<std::string, KnownDifference> known_differences() {
  std::map<std::string, KnownDifference> known;
  std::ifstream in(fs::path(NN_SOURCE_DIR) / "tests/cli/function_info/onnx_known_differences.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("golden ", 0) != 0) continue;
    size_t colon = line.find(": ");
    size_t space = line.find(' ', colon + 2);
    if (colon == std::string::npos || space == std::string::npos) {
      ADD_FAILURE() << "onnx_known_differences.txt: malformed line '" << line << "'";
      continue;
    }
    known[line.substr(7, colon - 7)] = {line.substr(colon + 2, space - colon - 2), line.substr(space + 1)};
  }
  return known;
}

class OnnxGolden : public ::testing::TestWithParam<std::pair<GoldenCase, int>> {};

TEST_P(OnnxGolden, ExportsCheckedModelMatchingUpstream) {
  const auto& [c, opset] = GetParam();
  fs::path golden = testdata_dir() / "golden" / c.name / (opset == 13 ? "upstream_opset13.onnx" : "upstream.onnx");
  if (!fs::exists(golden)) GTEST_SKIP() << "no golden " << golden;
  nn::ir::Model model = nn::formats::expand_model(nn::formats::load_model(c.inputs));
  nn::formats::OnnxExportOptions options;
  options.define_version = opset == 13 ? "opset_13" : "";
  onnx::ModelProto mine;
  static const std::map<std::string, KnownDifference> known = known_differences();
  auto difference = known.find(c.name);
  if (difference != known.end() && difference->second.kind == "refused") {
    try {
      nn::formats::build_onnx_model(model, options, &mine);
      FAIL() << "exported a network listed as refused in onnx_known_differences.txt";
    } catch (const nn::Error& e) {
      EXPECT_NE(std::string(e.what()).find(difference->second.value), std::string::npos) << e.what();
    }
    return;
  }
  nn::formats::build_onnx_model(model, options, &mine);
  onnx::ModelProto checked = mine;
  nn::formats::check_onnx_model(checked, c.name);
  onnx::ModelProto theirs = read_onnx(golden);
  EXPECT_EQ(mine.opset_import(0).version(), theirs.opset_import(0).version());
  EXPECT_EQ(mine.ir_version(), theirs.ir_version());
  EXPECT_EQ(mine.graph().name(), theirs.graph().name());
  if (difference != known.end() && difference->second.kind == "ops") {
    EXPECT_EQ(join(op_types(mine)), difference->second.value + " ") << "(intended difference from upstream)";
  } else {
    EXPECT_EQ(join(op_types(mine)), join(op_types(theirs)));
  }
  auto mine_dims = parameter_dims(mine), their_dims = parameter_dims(theirs);
  for (const auto& p : model.parameters) {
    if (!their_dims.count(p.name)) continue;
    EXPECT_EQ(mine_dims[p.name], their_dims[p.name]) << "initializer " << p.name;
  }
  ASSERT_EQ(mine.graph().input_size(), theirs.graph().input_size());
  for (int i = 0; i < mine.graph().input_size(); ++i)
    EXPECT_EQ(mine.graph().input(i).DebugString(), theirs.graph().input(i).DebugString());
  ASSERT_EQ(mine.graph().output_size(), theirs.graph().output_size());
  for (int i = 0; i < mine.graph().output_size(); ++i)
    EXPECT_EQ(mine.graph().output(i).name(), theirs.graph().output(i).name());
}

std::vector<std::pair<GoldenCase, int>> all_params() {
  std::vector<std::pair<GoldenCase, int>> params;
  for (const auto& c : golden_cases())
    for (int opset : {11, 13}) params.push_back({c, opset});
  return params;
}

std::string param_name(const ::testing::TestParamInfo<std::pair<GoldenCase, int>>& info) {
  std::string n = info.param.first.name + "_opset" + std::to_string(info.param.second);
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Testdata, OnnxGolden, ::testing::ValuesIn(all_params()), param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OnnxGolden);

}  // namespace
