// TFLite reader and importer on hostile files: each ends quickly in one nn::Error (fuzz regressions).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "formats/passes/expand_repeat.hpp"
#include "formats/tflite/tflite_import.hpp"
#include "nn/core/error.hpp"
#include "nn/ir/graph_builder.hpp"

namespace fs = std::filesystem;

namespace {

std::string data_file(const std::string& name) {
  std::ifstream in(fs::path(NN_TFLITE_TEST_DATA) / name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// What fuzz_tflite does: import, then build the network at batch 1. Returns the error text ("" if none).
std::string import_and_build(const std::string& bytes) {
  try {
    nn::ir::Model model = nn::formats::import_tflite_bytes(bytes);
    nn::ir::ParameterStore params;
    params.load(model.parameters);
    nn::ir::BuildOptions opt;
    opt.batch_size = 1;
    auto built = nn::ir::build_network(nn::formats::expand_network(model.networks.at(0)), params, opt);
    (void)built;
  } catch (const nn::Error& e) {
    return e.what();
  }
  return "";
}

// sensiml_model_runner_int8 with one MAX_POOL_2D's stride_h and filter_width set to 2^24 (took 32 s under load):
// the SAME padding of a 2^24-wide window was built as a Pad of the whole activation.
TEST(TfliteReader, HugePoolWindowFailsFast) {
  const std::string bytes = data_file("fuzz_pool_huge_window.tflite");
  ASSERT_EQ(bytes.size(), 8368u);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string err = import_and_build(bytes);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(err.find("window 2x16777216 is larger than an input of 5x6 allows (2 x input + 1)"), std::string::npos)
      << err;
  EXPECT_LT(seconds, 1.0);
}

}  // namespace
