// Expanded networks against upstream 'nnabla_cli dump -F -V' output (golden/**/py_dump_FV.txt[.gz]).
#include <gtest/gtest.h>
#include <zlib.h>

#include <regex>
#include <sstream>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

using test::testdata_dir;

std::string read_maybe_gzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return "";
  std::string out;
  char buf[65536];
  int n;
  while ((n = gzread(f, buf, sizeof(buf))) > 0) out.append(buf, size_t(n));
  gzclose(f);
  return out;
}

struct DumpFunction {
  std::string type, name;
  std::vector<std::string> inputs, outputs, input_shapes;
};
struct DumpSection {
  std::string kind, name;  // kind: Optimizer, Monitor, Executor
  std::vector<DumpFunction> functions;
};
struct Dump {
  std::vector<std::string> imported;
  std::vector<DumpSection> sections;
};

Dump parse_dump(const std::string& text) {
  static const std::regex kImport(R"(^Importing (.*)$)");
  static const std::regex kSection(R"(^\s*(Optimizer|Monitor|Executor)\s*\[(\d+)\]: (.*)$)");
  static const std::regex kFunction(R"(^\s+Function\[\s*(\d+)\s*\]: Type: (\S+)\s+Name: ?(.*)$)");
  static const std::regex kPort(R"(^\s+Function\[\s*(\d+)\s*\]:\s+(Input|Output)(\d+): Name: (.*) Shape: (.*)$)");
  Dump dump;
  std::istringstream in(text);
  std::string line;
  std::string current;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, kImport)) {
      dump.imported.push_back(m[1]);
      continue;
    }
    if (!std::regex_match(line, m, kSection)) continue;
    const std::string key = std::string(m[1]) + m[2].str();
    const std::string rest = m[3];
    if (key != current) {
      current = key;
      dump.sections.push_back({m[1], rest, {}});
      continue;
    }
    std::smatch f;
    if (std::regex_match(rest, f, kPort)) {
      auto& fn = dump.sections.back().functions.back();
      std::string name = f[4];
      while (!name.empty() && name.back() == ' ') name.pop_back();
      if (f[2] == "Input") {
        fn.inputs.push_back(name);
        fn.input_shapes.push_back(f[5]);
      } else {
        fn.outputs.push_back(name);
      }
    } else if (std::regex_match(rest, f, kFunction)) {
      dump.sections.back().functions.push_back({f[2], f[3], {}, {}, {}});
    }
  }
  return dump;
}

std::string python_shape(const ir::Variable* v) {
  if (!v) return "[]";
  std::string s = "[";
  for (size_t i = 0; i < v->shape.size(); ++i) s += (i ? ", " : "") + std::to_string(v->shape[i]);
  return s + "]";
}

// First line of a (possibly gzipped) text file.
std::string first_line(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return "";
  char buf[1024] = {0};
  gzgets(f, buf, sizeof(buf));
  gzclose(f);
  return buf;
}

// Dumps of NNP imports (ONNX imports print no 'Importing' line and are covered by the ONNX work).
std::vector<std::string> golden_dumps() {
  std::vector<std::string> out;
  for (const auto& f : test::find_files(testdata_dir() / "golden", {"txt", "gz"})) {
    std::string base = std::filesystem::path(f).filename().string();
    if ((base == "py_dump_FV.txt" || base == "py_dump_FV.txt.gz") && first_line(f).rfind("Importing ", 0) == 0)
      out.push_back(f);
  }
  return out.empty() ? std::vector<std::string>{"<no golden dumps>"} : out;
}

class UpstreamDump : public ::testing::TestWithParam<std::string> {};

TEST_P(UpstreamDump, ExpandedNetworksMatch) {
  NN_REQUIRE_TESTDATA(GetParam());
  const Dump dump = parse_dump(read_maybe_gzip(GetParam()));
  if (dump.imported.empty()) GTEST_SKIP() << "not an NNP import (ONNX dumps have no 'Importing' line)";
  std::vector<std::string> files;
  for (const auto& rel : dump.imported) {
    if (rel.size() > 5 && rel.compare(rel.size() - 5, 5, ".onnx") == 0) GTEST_SKIP() << "ONNX import";
    files.push_back((testdata_dir() / rel).string());
  }
  const ir::Model model = expand_model(load_model(files));
  ASSERT_FALSE(dump.sections.empty());
  for (const auto& section : dump.sections) {
    SCOPED_TRACE(section.kind + " " + section.name);
    std::string network_name;
    for (const auto& o : model.optimizers)
      if (section.kind == "Optimizer" && o.name == section.name) network_name = o.network_name;
    for (const auto& mo : model.monitors)
      if (section.kind == "Monitor" && mo.name == section.name) network_name = mo.network_name;
    for (const auto& e : model.executors)
      if (section.kind == "Executor" && e.name == section.name) network_name = e.network_name;
    const ir::Network* net = model.find_network(network_name);
    ASSERT_NE(net, nullptr) << network_name;
    ASSERT_EQ(net->functions.size(), section.functions.size());
    for (size_t i = 0; i < section.functions.size(); ++i) {
      const auto& want = section.functions[i];
      const auto& got = net->functions[i];
      EXPECT_EQ(got.type, want.type) << i;
      EXPECT_EQ(got.name, want.name) << i;
      EXPECT_EQ(got.inputs, want.inputs) << i << " " << got.name;
      EXPECT_EQ(got.outputs, want.outputs) << i << " " << got.name;
      for (size_t k = 0; k < got.inputs.size() && k < want.input_shapes.size(); ++k)
        EXPECT_EQ(python_shape(net->find_variable(got.inputs[k])), want.input_shapes[k]) << got.inputs[k];
    }
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string rel =
      std::filesystem::path(info.param).parent_path().lexically_relative(testdata_dir() / "golden").string();
  std::string name;
  for (char c : rel) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Golden, UpstreamDump, ::testing::ValuesIn(golden_dumps()), test_name);

}  // namespace
}  // namespace nn::formats
