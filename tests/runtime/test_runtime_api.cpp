// nncli::Model: load, shapes, inputs from memory, outputs against sample_models' expected values, errors.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "nncli/runtime.hpp"

namespace {

const std::string kMlp = std::string(NNCLI_SAMPLES) + "/mlp/";

std::vector<float> read_floats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(in.good() || in.eof()) << path;
  std::vector<float> values(bytes.size() / sizeof(float));
  std::copy(bytes.begin(), bytes.begin() + values.size() * sizeof(float), reinterpret_cast<char*>(values.data()));
  return values;
}

// The two samples' expected outputs, concatenated: (2, 3).
std::vector<float> expected_mlp_b2() {
  std::vector<float> y = read_floats(kMlp + "expected_output_b2_0.bin");
  std::vector<float> y1 = read_floats(kMlp + "expected_output_b2_1.bin");
  y.insert(y.end(), y1.begin(), y1.end());
  return y;
}

void expect_near_all(const std::vector<float>& actual, const std::vector<float>& expected, float tol = 1e-5f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], tol) << "at " << i;
}

// The message of the nncli::Error that f throws (and its code through *code).
template <class F>
std::string error_of(F&& f, int* code = nullptr) {
  try {
    f();
  } catch (const nncli::Error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  ADD_FAILURE() << "no nncli::Error thrown";
  return "";
}

TEST(RuntimeApi, MlpShapesAndOutputs) {
  nncli::Model model(kMlp + "mlp.nnp", {.batch_size = 2});
  EXPECT_EQ(model.executor(), "runtime");
  EXPECT_EQ(model.executors(), std::vector<std::string>{"runtime"});
  EXPECT_EQ(model.batch_size(), 2);
  ASSERT_EQ(model.inputs().size(), 1u);
  EXPECT_EQ(model.inputs()[0].name, "x");
  EXPECT_EQ(model.inputs()[0].shape, (std::vector<int64_t>{2, 4}));
  ASSERT_EQ(model.outputs().size(), 1u);
  EXPECT_EQ(model.outputs()[0].name, "y");
  EXPECT_EQ(model.outputs()[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(model.output(0).empty());

  const std::vector<float> x = read_floats(kMlp + "input_b2.bin");
  model.set_input("x", x.data(), x.size());
  model.run();
  expect_near_all(model.output(0), expected_mlp_b2());
  expect_near_all(model.output("y"), expected_mlp_b2());
}

TEST(RuntimeApi, InputShapesChangeBetweenRuns) {
  nncli::Model model(kMlp + "mlp.nnp", {.batch_size = 1});
  EXPECT_EQ(model.inputs()[0].shape, (std::vector<int64_t>{1, 4}));
  const std::vector<float> x = read_floats(kMlp + "input_b2.bin");
  model.set_input_shapes({{2, 4}});  // the batch of two samples the expected outputs are for
  EXPECT_EQ(model.inputs()[0].shape, (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(model.outputs()[0].shape, (std::vector<int64_t>{2, 3}));
  model.set_input(0, x.data(), x.size());
  model.run();
  expect_near_all(model.output(0), expected_mlp_b2());

  model.set_input_shapes({{1, 4}});  // the second sample alone gives its row of the batch's output
  model.set_input(0, x.data() + 4, 4);
  model.run();
  const std::vector<float> expected = expected_mlp_b2();
  expect_near_all(model.output(0), std::vector<float>(expected.begin() + 3, expected.end()));

  int code = 0;
  EXPECT_NE(error_of(
                [&] {
                  model.set_input_shapes({{1, 5}});
                },
                &code)
                .find("function 'fc1' (Affine)"),
            std::string::npos);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(model.inputs()[0].shape, (std::vector<int64_t>{1, 4}));  // unchanged after the refusal
}

// The values of a version-1 .npy file of float32 (its header skipped).
std::vector<float> read_npy_floats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t start = 10 + (size_t(uint8_t(bytes.at(8))) | size_t(uint8_t(bytes.at(9))) << 8);
  std::vector<float> values((bytes.size() - start) / sizeof(float));
  std::memcpy(values.data(), bytes.data() + start, values.size() * sizeof(float));
  return values;
}

TEST(RuntimeApi, OnnxDynamicAxesImportedAtEachShape) {
  const std::string data = std::string(NNCLI_CLI_DATA) + "/dynamic_sequence";
  EXPECT_NE(error_of([&] { nncli::Model model(data + ".onnx"); }).find("give its dynamic axes fixed sizes"),
            std::string::npos);
  nncli::Model model(data + ".onnx", {.input_shapes = {{"x", {1, 3, 4}}}});
  EXPECT_EQ(model.inputs()[0].shape, (std::vector<int64_t>{1, 3, 4}));
  for (const std::string shape :
       {"1x3x4", "2x5x4", "1x3x4"}) {  // ONNX Runtime's outputs (make_dynamic_sequence.py)
    const std::vector<float> x = read_npy_floats(data + "_" + shape + ".npy");
    model.set_input_shapes({shape == "1x3x4" ? std::vector<int64_t>{1, 3, 4} : std::vector<int64_t>{2, 5, 4}});
    EXPECT_EQ(model.outputs()[0].size(), int64_t(x.size()));
    model.set_input(0, x.data(), x.size());
    model.run();
    expect_near_all(model.output(0), read_floats(data + "_" + shape + "_expected.bin"));
  }
}

// New shapes of an ONNX model with dynamic axes are built from a shape template (the import's sizes fitted as
// functions of batch and sequence, learnt at the first new shape of each set of dims at 1): every output equals
// that of a model imported at the shape itself, and once learnt, a new shape imports nothing.
TEST(RuntimeApi, OnnxNewShapesFromTheShapeTemplateEqualImports) {
  const std::string path = std::string(NNCLI_CLI_DATA) + "/dynamic_sequence.onnx";
  std::vector<std::string> lines;
  nncli::set_log_level(nncli::LogLevel::kVerbose);
  nncli::set_log_sink([&](nncli::LogLevel, const std::string& line) { lines.push_back(line); });
  nncli::Model model(path, {.input_shapes = {{"x", {1, 3, 4}}}});
  size_t imports_before_last = 0;
  const std::vector<std::vector<int64_t>> shapes{{2, 5, 4}, {3, 2, 4}, {6, 9, 4}, {1, 7, 4}, {1, 2, 4},
                                                 {4, 1, 4}, {2, 2, 4}, {1, 1, 4}, {5, 11, 4}};
  for (const auto& shape : shapes) {
    if (&shape == &shapes.back()) imports_before_last = lines.size();
    model.set_input_shapes({shape});
    std::vector<float> x(size_t(model.inputs()[0].size()));
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 7) * 0.25f - 0.5f;
    model.set_input(0, x.data(), x.size());
    model.run();
    nncli::Model imported(path, {.input_shapes = {{"x", shape}}});
    imported.set_input(0, x.data(), x.size());
    imported.run();
    EXPECT_EQ(model.outputs()[0].shape, imported.outputs()[0].shape);
    EXPECT_EQ(model.output(0), imported.output(0)) << "at " << shape[0] << "x" << shape[1];
  }
  nncli::set_log_sink(nullptr);
  nncli::set_log_level(nncli::LogLevel::kWarning);
  size_t learnt = 0, imports_at_last = 0;
  for (size_t k = 0; k < lines.size(); ++k) {
    learnt += lines[k].find("built from a shape template") != std::string::npos;
    imports_at_last += k >= imports_before_last && lines[k].rfind("Importing", 0) == 0;
  }
  EXPECT_EQ(learnt, 3u);           // none at 1, batch at 1, sequence at 1 (both at 1: the import itself)
  EXPECT_EQ(imports_at_last, 1u);  // the model imported beside it, not the template's
}

// A model whose import folds constants that follow the sequence (a position table's slice, a causal mask): the
// template's imports compute them in the network instead, over rounds; outputs equal ONNX Runtime's and imports'.
TEST(RuntimeApi, OnnxShapeTemplateComputesConstantsThatFollowTheShapes) {
  const std::string data = std::string(NNCLI_CLI_DATA) + "/dynamic_positions";
  std::vector<std::string> lines;
  nncli::set_log_level(nncli::LogLevel::kVerbose);
  nncli::set_log_sink([&](nncli::LogLevel, const std::string& line) { lines.push_back(line); });
  nncli::Model model(data + ".onnx", {.input_shapes = {{"x", {1, 3, 4}}}});
  const std::vector<float> x = read_npy_floats(data + "_2x5x4.npy");
  model.set_input_shapes({{2, 5, 4}});
  model.set_input(0, x.data(), x.size());
  model.run();
  expect_near_all(model.output(0), read_floats(data + "_2x5x4_expected.bin"));
  for (const std::vector<int64_t> shape : {std::vector<int64_t>{3, 7, 4}, {2, 2, 4}}) {
    model.set_input_shapes({shape});
    std::vector<float> y(size_t(model.inputs()[0].size()));
    for (size_t i = 0; i < y.size(); ++i) y[i] = float(i % 5) * 0.3f - 0.6f;
    model.set_input(0, y.data(), y.size());
    model.run();
    nncli::Model imported(data + ".onnx", {.input_shapes = {{"x", shape}}});
    imported.set_input(0, y.data(), y.size());
    imported.run();
    EXPECT_EQ(model.output(0), imported.output(0)) << "at " << shape[0] << "x" << shape[1];
  }
  nncli::set_log_sink(nullptr);
  nncli::set_log_level(nncli::LogLevel::kWarning);
  size_t rounds_of_imports = 0;
  for (const auto& line : lines)
    if (line.find("built from a shape template") != std::string::npos)
      rounds_of_imports = std::stoul(line.substr(line.find("learnt from ") + 12)) / 5;
  EXPECT_GT(rounds_of_imports, 1u);  // 5 imports a round: the first found the folded constants
}

TEST(RuntimeApi, NntxtWithParameterFile) {
  nncli::Model model(std::vector<std::string>{kMlp + "mlp.nntxt", kMlp + "mlp.nnp"}, {.batch_size = 2});
  const std::vector<float> x = read_floats(kMlp + "input_b2.bin");
  model.set_input(0, x.data(), x.size());
  model.run();
  expect_near_all(model.output(0), expected_mlp_b2());
}

TEST(RuntimeApi, LenetMatchesUpstream) {
  const std::string dir = std::string(NNCLI_SAMPLES) + "/mnist_lenet/";
  nncli::Model model(dir + "result2.nnp", {.executor = "Executor", .batch_size = 1});
  EXPECT_EQ(model.inputs()[0].shape, (std::vector<int64_t>{1, 1, 28, 28}));
  const std::vector<float> x = read_floats(dir + "input_4_1.bin");
  model.set_input(0, x.data(), x.size());
  model.run();
  expect_near_all(model.output(0), read_floats(dir + "expected_output_4_1.bin"));
}

TEST(RuntimeApi, ErrorsCarryTheCliMessageAndStatus) {
  int code = 0;
  const std::string truncated = std::string(NNCLI_CLI_DATA) + "/truncated.nnp";
  EXPECT_EQ(
      error_of([&] { nncli::Model m(truncated); }, &code).rfind("'" + truncated + "': not a valid zip archive", 0),
      0u);
  EXPECT_EQ(code, 1);
  EXPECT_NE(error_of([&] { nncli::Model m(kMlp + "mlp.nntxt"); }).find("network 'mlp': parameters"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { nncli::Model m(kMlp + "mlp.nnp", {.executor = "nope"}); }),
            "unknown executor 'nope' (valid executors: 'runtime')");
  EXPECT_EQ(error_of([] { nncli::Model m(std::vector<std::string>{}); }, &code), "no model file given");
  EXPECT_EQ(code, 2);

  nncli::Model model(kMlp + "mlp.nnp", {.batch_size = 2});
  const std::vector<float> x(7, 0.f);
  EXPECT_EQ(error_of([&] { model.set_input(0, x.data(), x.size()); }),
            "input 'x' of shape (2, 4) needs 8 values, but 7 were given");
  EXPECT_EQ(error_of([&] { model.set_input(1, x.data(), 8); }),
            "input index 1 is out of range (the executor has 1 inputs)");
  EXPECT_EQ(error_of([&] { model.set_input("z", x.data(), 8); }), "executor 'runtime' has no input 'z'");
  EXPECT_EQ(error_of([&] { model.output("z"); }), "executor 'runtime' has no output 'z'");
}

// An explicit context: cpu always runs; cudnn either runs (a GPU build on a GPU) or fails as `-C cudnn` does
// where this build or machine cannot run it (status 3).
TEST(RuntimeApi, Context) {
  const std::vector<float> x = read_floats(kMlp + "input_b2.bin");
  for (const char* context : {"cpu", "cudnn"}) {
    try {
      nncli::Model model(kMlp + "mlp.nnp", {.batch_size = 2, .context = context});
      model.set_input(0, x.data(), x.size());
      model.run();
      expect_near_all(model.output(0), expected_mlp_b2(), 1e-3f);  // GPU matmuls may round to TF32
    } catch (const nncli::Error& e) {
      EXPECT_STRNE(context, "cpu") << e.what();
      EXPECT_EQ(e.code(), 3) << e.what();
    }
  }
}

// One Model per thread: separate Models run at the same time and agree with the single-thread result.
TEST(RuntimeApi, OneModelPerThread) {
  const std::vector<float> x = read_floats(kMlp + "input_b2.bin");
  std::vector<std::vector<float>> results(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&, t] {
      nncli::Model model(kMlp + "mlp.nnp", {.batch_size = 2});
      model.set_input(0, x.data(), x.size());
      for (int i = 0; i < 20; ++i) model.run();
      results[t] = model.output(0);
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& r : results) expect_near_all(r, expected_mlp_b2());
}

TEST(RuntimeApi, LogSinkAndVersion) {
  std::vector<std::string> lines;
  nncli::set_log_level(nncli::LogLevel::kInfo);
  nncli::set_log_sink([&](nncli::LogLevel, const std::string& line) { lines.push_back(line); });
  nncli::Model model(kMlp + "mlp.nnp");
  nncli::set_log_sink(nullptr);
  nncli::set_log_level(nncli::LogLevel::kWarning);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "Importing " + kMlp + "mlp.nnp");
  EXPECT_EQ(nncli::version().find('.') != std::string::npos, true);
}

}  // namespace
