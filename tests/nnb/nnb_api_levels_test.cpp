// NNB API levels against upstream's own files (../shared/upstream/nnabla): api_levels.yaml at every level, as
// function_table / the NNB writer see it, and functions.yaml's argument types and c_runtime support.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "formats/nnb/nnb_args.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "formats/nnb/nnb_support.hpp"
#include "formats/nnb/nnb_writer.hpp"
#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"
#include "nnb_test_util.hpp"

namespace nn::formats::nnb::test {

namespace {

const std::string kUpstream = NN_UPSTREAM_DIR;

size_t indent_of(const std::string& line) { return line.find_first_not_of(' '); }

// api_levels.yaml: "L:" lines, then "  Type_argcode: id" lines (argcode "Empty" for none) added at level L.
std::map<int, std::map<std::string, FunctionIdEntry>> upstream_levels() {
  std::ifstream in(kUpstream + "/api_levels.yaml");
  EXPECT_TRUE(in.good()) << kUpstream << "/api_levels.yaml";
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

struct UpstreamFunction {
  std::string argcode;  // from the argument types, as nnabla's NNB exporter packs them
  bool c_runtime = false;
};

// The NNB code of a functions.yaml argument type (nnabla's type_to_pack_format; "repeated float" as the
// code generator writes it in api_levels.yaml).
std::string pack_code(const std::string& type) {
  static const std::map<std::string, std::string> codes = {
      {"bool", "B"},   {"double", "f"}, {"float", "f"},        {"int64", "i"},          {"repeated int64", "iI"},
      {"Shape", "iI"}, {"string", "i"}, {"Communicator", "C"}, {"repeated float", "fF"}};
  auto it = codes.find(type);
  return it == codes.end() ? "?" + type : it->second;
}

// functions.yaml: category (indent 0) > function (2) > section (4: arguments, c_runtime, ...) > argument (6) >
// "type:" (8). Doc blocks are indented deeper than the keys they belong to.
std::map<std::string, UpstreamFunction> upstream_functions() {
  std::ifstream in(kUpstream + "/functions.yaml");
  EXPECT_TRUE(in.good()) << kUpstream << "/functions.yaml";
  std::map<std::string, UpstreamFunction> functions;
  std::string function, section;
  for (std::string line; std::getline(in, line);) {
    const size_t indent = indent_of(line);
    if (indent == std::string::npos) continue;
    const std::string text = line.substr(indent);
    const std::string key = text.substr(0, text.find(':'));
    if (indent == 2) {
      function = key;
      functions[function];
    } else if (indent == 4) {
      section = key;
      if (key == "c_runtime") functions[function].c_runtime = text == "c_runtime: support";
    } else if (indent == 8 && section == "arguments" && key == "type") {
      functions[function].argcode += pack_code(text.substr(text.find(':') + 2));
    }
  }
  return functions;
}

TEST(NnbApiLevels, UpstreamLevelsAreOneToNewest) {
  const auto upstream = upstream_levels();
  ASSERT_FALSE(upstream.empty());
  EXPECT_EQ(upstream.begin()->first, 1);
  EXPECT_EQ(int(upstream.size()), upstream.rbegin()->first) << "levels are not contiguous";
  EXPECT_EQ(newest_api_level(), upstream.rbegin()->first);
}

// At every level the table `function_info --api L`, the writer and nnb_template use (the union of levels
// 1..L, later entries overriding earlier ones, as nnabla's ApiLevelInfo) is upstream's: function set, ids,
// argument codes and the level each entry comes from.
TEST(NnbApiLevels, FunctionTableMatchesUpstreamAtEveryLevel) {
  std::map<std::string, FunctionIdEntry> expected;
  for (const auto& [level, added] : upstream_levels()) {
    for (const auto& [type, e] : added) expected[type] = e;
    const auto& ours = function_table(effective_api_level(level));
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

// Every upstream entry through the writer: at its level an NNB of that one function records its id (unless
// an argument cannot be encoded, which is another refusal); a level below, a function not there yet is
// refused as upstream refuses it.
TEST(NnbApiLevels, WriterRecordsEachLevelsIds) {
  const auto upstream = upstream_levels();
  std::set<std::string> known;
  int written = 0;
  for (const auto& [level, added] : upstream) {
    for (const auto& [type, e] : added) {
      NnbExportOptions options;
      options.api_level = level;
      try {
        const NnbNetwork n = build_nnb(one_function_model(type), options);
        EXPECT_EQ(int(n.api_level), level) << type;
        EXPECT_EQ(n.functions.at(0).type, e.id) << "level " << level << ": " << type;
        ++written;
      } catch (const nn::Error& error) {
        EXPECT_EQ(std::string(error.what()).find("current API Level"), std::string::npos)
            << "level " << level << ": " << error.what();
      }
      if (level > 1 && !known.count(type)) {
        options.api_level = level - 1;
        try {
          build_nnb(one_function_model(type), options);
          ADD_FAILURE() << type << " written at level " << level - 1;
        } catch (const nn::Error& error) {
          const std::string expected = "not supported in current API Level(=" + std::to_string(level - 1) + ")";
          EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
        }
      }
    }
    for (const auto& [type, e] : added) known.insert(type);
  }
  EXPECT_GT(written, int(known.size()) / 2) << "most functions write with their default arguments";
}

// The writer's argument codes (libnn's schemas) are functions.yaml's for every function of the newest level.
TEST(NnbApiLevels, ArgumentCodesFollowFunctionsYaml) {
  const auto functions = upstream_functions();
  for (const auto& [type, entry] : function_table(newest_api_level())) {
    auto it = functions.find(type);
    ASSERT_NE(it, functions.end()) << type << " is not in functions.yaml";
    EXPECT_EQ(argument_codes(type), it->second.argcode) << type;
  }
}

// nnabla-c-runtime's functions (what `function_info -f NNB` lists) are functions.yaml's "c_runtime: support".
TEST(NnbApiLevels, CRuntimeFunctionsFollowFunctionsYaml) {
  const auto functions = upstream_functions();
  std::set<std::string> supported;
  for (const auto& [type, f] : functions) {
    EXPECT_EQ(c_runtime_implements(type), f.c_runtime) << type;
    if (f.c_runtime) supported.insert(type);
  }
  const auto ours = nnb_supported_functions(-1);
  EXPECT_EQ(std::set<std::string>(ours.begin(), ours.end()), supported);
}

}  // namespace

}  // namespace nn::formats::nnb::test
