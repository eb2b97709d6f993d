// Batch split (runtime/session/batch_split.*, formats/passes/batch_split.*): which networks split, the sub-batch
// choice, and that a split executor gives the whole batch's outputs on a real nnabla ResNet-18.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "batch_split.hpp"
#include "executor_runner.hpp"
#include "formats/passes/batch_split.hpp"
#include "formats/passes/inference_passes.hpp"
#include "initialized_model.hpp"
#include "nn/ir/graph_builder.hpp"

namespace {
using namespace nn;

// Sets NN_BATCH_SPLIT while alive.
class SplitEnv {
 public:
  explicit SplitEnv(const char* value) { setenv("NN_BATCH_SPLIT", value, 1); }
  ~SplitEnv() { unsetenv("NN_BATCH_SPLIT"); }
};

// A network built from (type, inputs, output, attrs) steps over x of shape `in`; parameters get their shapes.
struct NetworkSketch {
  ir::Network net;
  std::map<std::string, Shape> shapes;
  explicit NetworkSketch(const Shape& in) {
    net.name = "sketch";
    add_variable("x", in, "Buffer");
  }
  void add_variable(const std::string& name, const Shape& shape, const std::string& type) {
    ir::Variable v;
    v.name = name;
    v.type = type;
    v.shape = shape;
    net.variables.push_back(v);
    shapes[name] = shape;
  }
  void add(const std::string& type, std::vector<std::string> inputs, const std::string& out,
           const Shape& out_shape, const Attrs& attrs = {}) {
    ir::Function f;
    f.name = type + "_" + std::to_string(net.functions.size());
    f.type = type;
    f.inputs = std::move(inputs);
    f.outputs = {out};
    f.attrs = attrs;
    net.functions.push_back(f);
    add_variable(out, out_shape, "Buffer");
  }
  std::optional<ir::Network> split(const std::string& out, int64_t batch, int64_t sub, std::string* why) const {
    return formats::rebatch_for_split({&net, &shapes, {"x"}, {out}, batch}, sub, why);
  }
};

Attrs attrs_of(const std::string& name, AttrValue value) {
  Attrs a;
  a.set(name, std::move(value));
  return a;
}

TEST(BatchSplit, PerSampleNetworkRebatchesShapesAndReshapeTargets) {
  NetworkSketch s({8, 3, 4, 4});
  s.add_variable("w", {5, 3, 3, 3}, "Parameter");
  s.add_variable("scale", {1, 5, 1, 1}, "Parameter");
  s.add("Convolution", {"x", "w"}, "c", {8, 5, 2, 2});
  s.add("Mul2", {"c", "scale"}, "m", {8, 5, 2, 2});
  s.add("ReLU", {"m"}, "r", {8, 5, 2, 2});
  s.add("Reshape", {"r"}, "flat", {8, 20}, attrs_of("shape", std::vector<int64_t>{8, 20}));
  s.add("Softmax", {"flat"}, "y", {8, 20}, attrs_of("axis", int64_t(1)));
  std::string why;
  auto part = s.split("y", 8, 2, &why);
  ASSERT_TRUE(part) << why;
  EXPECT_EQ(part->find_variable("x")->shape, (Shape{2, 3, 4, 4}));
  EXPECT_EQ(part->find_variable("y")->shape, (Shape{2, 20}));
  EXPECT_EQ(part->find_variable("w")->shape, (Shape{5, 3, 3, 3}));  // parameters keep their shapes
  EXPECT_EQ(part->functions[3].attrs.get_ints("shape"), (std::vector<int64_t>{2, 20}));
}

TEST(BatchSplit, FunctionsThatMixSamplesKeepTheBatchWhole) {
  std::string why;
  {  // a sum over the batch axis
    NetworkSketch s({8, 4});
    s.add("Sum", {"x"}, "y", {1, 4}, attrs_of("axes", std::vector<int64_t>{0}));
    EXPECT_FALSE(s.split("y", 8, 1, &why));
    EXPECT_NE(why.find("Sum"), std::string::npos) << why;
  }
  {  // a reshape that folds the batch into another axis
    NetworkSketch s({8, 4});
    s.add("Reshape", {"x"}, "y", {4, 8}, attrs_of("shape", std::vector<int64_t>{4, 8}));
    EXPECT_FALSE(s.split("y", 8, 1, &why));
  }
  {  // a constant with one value per sample
    NetworkSketch s({8, 4});
    s.add_variable("per_sample", {8, 4}, "Parameter");
    s.add("Mul2", {"x", "per_sample"}, "y", {8, 4});
    EXPECT_FALSE(s.split("y", 8, 1, &why));
  }
  {  // a softmax across the batch
    NetworkSketch s({8, 4});
    s.add("Softmax", {"x"}, "y", {8, 4}, attrs_of("axis", int64_t(0)));
    EXPECT_FALSE(s.split("y", 8, 1, &why));
  }
  {  // a function the rules do not know
    NetworkSketch s({8, 4});
    s.add("BatchMatmul", {"x", "x"}, "y", {8, 4});
    EXPECT_FALSE(s.split("y", 8, 1, &why));
    EXPECT_NE(why.find("may mix samples"), std::string::npos) << why;
  }
}

TEST(BatchSplit, SubBatchIsTheSmallestDivisorWithEnoughWork) {
  EXPECT_EQ(nncli::choose_sub_batch(32, 1, 1e6), 0);  // one thread: nothing to split
  EXPECT_EQ(nncli::choose_sub_batch(1, 2, 1e6), 0);   // one sample
  EXPECT_EQ(nncli::choose_sub_batch(32, 2, 1e6), 1);  // large samples: one per chunk
  EXPECT_EQ(nncli::choose_sub_batch(32, 2, 1e5), 4);  // 3 samples' work at least -> 4
  EXPECT_EQ(nncli::choose_sub_batch(32, 2, 1e4), 0);  // 27 samples per chunk would leave one chunk
  EXPECT_EQ(nncli::choose_sub_batch(6, 4, 1e6), 1);
  SplitEnv off("0");
  EXPECT_EQ(nncli::choose_sub_batch(32, 2, 1e6), 0);
  SplitEnv eight("8");
  EXPECT_EQ(nncli::choose_sub_batch(32, 2, 1e6), 8);
}

// The executor's output for `input` at batch 4 with the batch split as NN_BATCH_SPLIT says.
std::vector<float> run_executor(const ir::Model& model, const std::vector<float>& input, const char* split) {
  SplitEnv env(split);
  nncli::RunnerOptions options;
  options.batch_size = 4;
  nncli::ExecutorRunner runner(model, model.executors.at(0), options);
  EXPECT_EQ(runner.sub_batch(), std::atoi(split));
  runner.set_input(0, input);
  return runner.run().at(0).values;
}

TEST(BatchSplit, SplitResNet18GivesTheWholeBatchsOutputs) {
  ir::Model model = test::load_with_initialized_parameters(
      std::string(NN_TESTDATA_DIR) + "/nnabla/converter_cases/N0004_resnet18_mulscalar_addscalar.nntxt");
  formats::optimize_for_inference(model);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(2);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> pixel(0.f, 1.f);
  std::vector<float> input(size_t(4 * 3 * 224 * 224));
  for (auto& v : input) v = pixel(rng);
  const std::vector<float> whole = run_executor(model, input, "0");
  for (const char* sub : {"1", "2"}) {
    const std::vector<float> split = run_executor(model, input, sub);
    ASSERT_EQ(split.size(), whole.size());
    double scale = 1e-12, worst = 0;
    for (float v : whole) scale = std::max(scale, double(std::abs(v)));
    for (size_t i = 0; i < whole.size(); ++i) worst = std::max(worst, double(std::abs(split[i] - whole[i])));
    EXPECT_LE(worst / scale, 1e-5) << "sub-batch " << sub;
  }
  omp_set_num_threads(saved);
}

}  // namespace
