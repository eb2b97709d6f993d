// Per-function NNB facts: argument codes from the schema, the id table's argcodes, c-runtime and transposed
// inputs.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "formats/nnb/nnb_args.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "formats/nnb/nnb_support.hpp"
#include "formats/nnb/nnb_writer.hpp"
#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"
#include "nnb_test_util.hpp"

namespace nn::formats::nnb::test {

namespace {

TEST(NnbArgumentCodes, FollowNnablasCodeGenerator) {
  EXPECT_EQ(argument_codes("Convolution"), "iiIiIiIiB");
  EXPECT_EQ(argument_codes("Sigmoid"), "");
  EXPECT_EQ(argument_codes("SyncBatchNormalization").substr(0, 1), "C");
  // Repeated floats are "fF", as in api_levels.yaml's RandomErase_ffFfFfFiBBiiBB (level 11).
  EXPECT_EQ(argument_codes("RandomErase"), "ffFfFfFiBBiiBB");
  EXPECT_EQ(function_table(11).at("RandomErase").argcode, argument_codes("RandomErase"));
  EXPECT_EQ(split_argcode("ffFiIB"), (std::vector<std::string>{"f", "fF", "iI", "B"}));
}

// Every entry of the id table is the current definition or an older one with arguments appended since
// (the writer drops the tail): its codes are a prefix of the schema's. Two known exceptions, both as upstream:
// HardSigmoid's newest entry (level 3) has "ff" though the function has no arguments (its export fails), and
// Dropout_fiB (output_mask) is newer than the catalog nncli follows (nnabla.proto's DropoutParameter).
TEST(NnbArgumentCodes, NewestTableEntriesArePrefixesOfTheSchema) {
  const std::map<std::string, std::string> known = {{"HardSigmoid", "ff"}, {"Dropout", "fiB"}};
  for (const auto& [type, entry] : function_table(newest_api_level())) {
    ASSERT_NE(OpRegistry::instance().find(type), nullptr) << type << " is not in the op inventory";
    const std::string current = argument_codes(type);
    if (auto it = known.find(type); it != known.end()) {
      EXPECT_EQ(entry.argcode, it->second) << type;
      continue;
    }
    EXPECT_EQ(current.compare(0, entry.argcode.size(), entry.argcode), 0)
        << type << ": table " << entry.argcode << ", schema " << current;
  }
}

nn::ir::Model one_function(const std::string& type, const Attrs& attrs) {
  nn::ir::Model m;
  nn::ir::Network n;
  n.name = "net";
  n.batch_size = 1;
  n.variables = {{"x", "Buffer", {}, {1, 3, 4, 4}, {}}, {"y", "Buffer", {}, {1, 3, 4, 4}, {}}};
  nn::ir::Function f;
  f.name = "f";
  f.type = type;
  f.inputs = {"x"};
  f.outputs = {"y"};
  f.attrs = attrs;
  n.functions = {f};
  m.networks = {n};
  m.executors = {net_executor("x", "y")};
  return m;
}

TEST(NnbArgumentCodes, RepeatedFloatsAreRefusedNamingTheArgument) {
  try {
    build_nnb(one_function("RandomErase", {}), NnbExportOptions{});
    FAIL();
  } catch (const nn::Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    const std::string what = e.what();
    EXPECT_NE(what.find("RandomErase.area_ratios: argument type"), std::string::npos) << what;
    EXPECT_EQ(what.find("fFFF"), std::string::npos) << what;
  }
}

TEST(NnbFunctionFacts, CRuntimeFunctionsAndTransposedInputs) {
  EXPECT_TRUE(c_runtime_implements("Convolution"));
  EXPECT_TRUE(c_runtime_implements("Trilu"));
  EXPECT_FALSE(c_runtime_implements("GlobalAveragePooling"));
  EXPECT_FALSE(c_runtime_implements("RandomErase"));
  EXPECT_EQ(transposed_inputs("Affine"), (std::vector<size_t>{1}));
  EXPECT_EQ(transposed_inputs("BinaryConnectAffine"), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(transposed_inputs("BinaryWeightAffine"), (std::vector<size_t>{1, 2}));
  EXPECT_TRUE(transposed_inputs("Convolution").empty());
  EXPECT_TRUE(transposed_inputs("INQAffine").empty());
}

// Coverage: every id of every level and every c-runtime function names a function of the op inventory.
TEST(NnbFunctionFacts, EveryEntryNamesAnInventoryFunction) {
  for (int level = 1; level <= newest_api_level(); ++level)
    for (const auto& [type, entry] : function_table(level)) {
      EXPECT_NE(OpRegistry::instance().find(type), nullptr) << "level " << level << ": " << type;
      EXPECT_EQ(function_by_id(entry.id)->type, type) << "id " << entry.id << " is used twice";
    }
  for (const auto& type : nnb_supported_functions(-1)) {
    EXPECT_TRUE(c_runtime_implements(type)) << type;
    EXPECT_NE(OpRegistry::instance().find(type), nullptr) << type;
  }
}

// Upstream's api_levels.yaml (the fixture's levels): "L:" lines, then "  Type_argcode: id" lines.
std::map<int, std::map<std::string, FunctionIdEntry>> upstream_levels() {
  std::ifstream in(NN_NNB_API_LEVELS);
  EXPECT_TRUE(in.good()) << NN_NNB_API_LEVELS;
  std::map<int, std::map<std::string, FunctionIdEntry>> levels;
  int level = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] != ' ') {
      level = std::stoi(line);
      continue;
    }
    const size_t colon = line.find(':'), underscore = line.find('_');
    FunctionIdEntry e;
    e.level = level;
    e.type = line.substr(2, underscore - 2);
    e.argcode = line.substr(underscore + 1, colon - underscore - 1);
    if (e.argcode == "Empty") e.argcode.clear();
    e.id = std::stoi(line.substr(colon + 1));
    levels[level][e.type] = e;
  }
  return levels;
}

// Every level of the fixture: the function table (ids and argcodes, later levels overriding earlier ones)
// is upstream's exactly, so `function_info --api L` lists what nnabla's does.
TEST(NnbApiLevels, MatchUpstreamAtEveryLevelOfTheFixture) {
  const auto upstream = upstream_levels();
  ASSERT_EQ(upstream.size(), 33u);
  std::map<std::string, FunctionIdEntry> expected;
  for (const auto& [level, added] : upstream) {
    for (const auto& [type, e] : added) expected[type] = e;
    const auto& ours = function_table(level);
    EXPECT_EQ(ours.size(), expected.size()) << "level " << level;
    for (const auto& [type, e] : expected) {
      auto it = ours.find(type);
      ASSERT_NE(it, ours.end()) << "level " << level << " lacks " << type << "_" << e.argcode;
      EXPECT_EQ(it->second.argcode, e.argcode) << "level " << level << ": " << type;
      EXPECT_EQ(it->second.id, e.id) << "level " << level << ": " << type;
      EXPECT_EQ(it->second.level, e.level) << "level " << level << ": " << type;
    }
  }
}

}  // namespace

}  // namespace nn::formats::nnb::test
