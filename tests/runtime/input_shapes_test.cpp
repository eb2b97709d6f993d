// Runs at input shapes other than the built ones (ExecutorRunner::set_input_shapes) and functions whose output
// size follows their data (NonZero): shapes are inferred again, each set of shapes keeps its own plan.
#include <gtest/gtest.h>

#include "executor_runner.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "nn/core/error.hpp"

namespace {
using namespace nn;

// x -> ReLU -> MulScalar(2) = y, and x -> NonZero -> MulScalar(1) = idx (an output whose size follows the data).
const char* kModel = R"(
network {
  name: "net" batch_size: 1
  variable { name: "x" type: "Buffer" shape { dim: -1 dim: 3 } }
  variable { name: "r" type: "Buffer" shape { dim: -1 dim: 3 } }
  variable { name: "y" type: "Buffer" shape { dim: -1 dim: 3 } }
  variable { name: "nz" type: "Buffer" shape { dim: 2 dim: 3 } }
  variable { name: "idx" type: "Buffer" shape { dim: 2 dim: 3 } }
  function { name: "relu" type: "ReLU" input: "x" output: "r" }
  function { name: "double" type: "MulScalar" input: "r" output: "y" mul_scalar_param { val: 2 } }
  function { name: "nonzero" type: "NonZero" input: "x" output: "nz" }
  function { name: "copy" type: "MulScalar" input: "nz" output: "idx" mul_scalar_param { val: 1 } }
}
executor {
  name: "run" network_name: "net"
  data_variable { variable_name: "x" data_name: "x" }
  output_variable { variable_name: "y" data_name: "y" }
  output_variable { variable_name: "idx" data_name: "idx" }
}
)";

nncli::ExecutorRunner make_runner(ir::Model& model) {
  return nncli::ExecutorRunner(model, model.executors.at(0), {});
}

TEST(InputShapes, RunsAtNewShapesAndReturnsToSeenOnes) {
  ir::Model model = formats::parse_nntxt(kModel, "model.nntxt");
  auto runner = make_runner(model);
  ASSERT_EQ(runner.input_shape(0), (Shape{1, 3}));
  runner.set_input(0, {1.f, -2.f, 3.f});
  auto out = runner.run();
  EXPECT_EQ(out[0].values, (std::vector<float>{2.f, 0.f, 6.f}));
  EXPECT_EQ(runner.shape_plans(), 1u);

  runner.set_input_shapes({{2, 3}});
  EXPECT_EQ(runner.input_shape(0), (Shape{2, 3}));
  EXPECT_EQ(runner.output_shape(0), (Shape{2, 3}));  // set up before the run
  EXPECT_EQ(runner.batch_size(), 2);
  runner.set_input(0, {1.f, -2.f, 3.f, -4.f, 5.f, 0.f});
  out = runner.run();
  EXPECT_EQ(out[0].shape, (Shape{2, 3}));
  EXPECT_EQ(out[0].values, (std::vector<float>{2.f, 0.f, 6.f, 0.f, 10.f, 0.f}));
  EXPECT_EQ(runner.shape_plans(), 2u);

  runner.set_input_shapes({{1, 3}});  // back to the first shapes: their plan, no new one
  EXPECT_EQ(runner.shape_plans(), 2u);
  runner.set_input(0, {-1.f, 1.f, 1.f});
  EXPECT_EQ(runner.run()[0].values, (std::vector<float>{0.f, 2.f, 2.f}));
}

TEST(InputShapes, OutputSizeFollowsTheData) {
  ir::Model model = formats::parse_nntxt(kModel, "model.nntxt");
  auto runner = make_runner(model);
  runner.set_input_shapes({{2, 3}});
  runner.set_input(0, {1.f, 0.f, 0.f, 0.f, 5.f, 7.f});
  auto out = runner.run();  // nonzero at (0,0), (1,1), (1,2); the function after NonZero is set up again
  EXPECT_EQ(out[1].shape, (Shape{2, 3}));
  EXPECT_EQ(out[1].values, (std::vector<float>{0.f, 1.f, 1.f, 0.f, 1.f, 2.f}));
  runner.set_input(0, {0.f, 0.f, 0.f, 0.f, 0.f, 9.f});
  out = runner.run();
  EXPECT_EQ(out[1].shape, (Shape{2, 1}));
  EXPECT_EQ(out[1].values, (std::vector<float>{1.f, 2.f}));
}

TEST(InputShapes, RefusesAnotherNumberOfAxesNamingTheInput) {
  ir::Model model = formats::parse_nntxt(kModel, "model.nntxt");
  auto runner = make_runner(model);
  try {
    runner.set_input_shapes({{2, 3, 1}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input 'x': shape (2, 3, 1) has another number of axes than the "
                                         "network's (1, 3)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(runner.input_shape(0), (Shape{1, 3}));  // the runner keeps its shapes
}

}  // namespace

// An ONNX model with dynamic axes imported again at other shapes (as nncli::Model does) shares the weights of
// the first import: both runners hold the same parameter variables, so the weights are in memory once.
TEST(InputShapes, ImportsAtOtherShapesShareTheWeights) {
  const std::vector<std::string> files{std::string(NNCLI_CLI_DATA) + "/dynamic_sequence.onnx"};
  auto first = nncli::load_runner(files, "", "cpu", {}, {{"x", {1, 3, 4}}}, false);
  nncli::RunnerOptions sharing;
  sharing.share_parameters = &first->parameters();
  auto second = nncli::load_runner(files, "", "cpu", sharing, {{"x", {2, 5, 4}}}, false);
  ASSERT_FALSE(first->parameters().ordered().empty());
  for (const auto& [name, var] : second->parameters().ordered())
    EXPECT_EQ(var, first->parameters().find(name)) << name << " is held twice";
  auto alone = nncli::load_runner(files, "", "cpu", {}, {{"x", {2, 5, 4}}}, false);
  for (const auto& [name, var] : alone->parameters().ordered()) EXPECT_NE(var, first->parameters().find(name));
}
