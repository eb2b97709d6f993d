// Helpers for the NNB tests: testdata paths, golden model directories and their source models.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

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
