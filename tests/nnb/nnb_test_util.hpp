// Helpers for the NNB tests: testdata paths, golden model directories and their source models.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::formats::nnb::test {

// The executor "exec" of network "net" with one data and one output variable.
inline nn::ir::Executor net_executor(const std::string& input, const std::string& output) {
  nn::ir::Executor e;
  e.name = "exec";
  e.network_name = "net";
  e.data_variable = {{input, input}};
  e.output_variable = {{output, "", output}};
  return e;
}

// A model of one function `type` (input "x", output "y", both 1x3x4x4) in network "net", executor "exec".
inline nn::ir::Model one_function_model(const std::string& type, const nn::Attrs& attrs = {}) {
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

inline std::filesystem::path testdata_dir() {
  if (const char* env = std::getenv("NN_TESTDATA_DIR"); env && *env) return env;
  return NN_TESTDATA_DIR;
}

struct GoldenCase {
  std::filesystem::path dir;         // golden/<model path with '.' -> '_'>
  std::vector<std::string> sources;  // the model files upstream converted
};

// Every golden directory holding upstream.nnb whose source model exists, sorted.
std::vector<GoldenCase> golden_nnb_cases();
std::string read_bytes(const std::filesystem::path& p);

}  // namespace nn::formats::nnb::test
