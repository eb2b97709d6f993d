// Helpers for the NNB tests: testdata paths, golden model directories and their source models.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace nn::formats::nnb::test {

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
