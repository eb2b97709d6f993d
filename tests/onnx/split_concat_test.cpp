// split_concatenated_convolutions (formats/passes) with FusedConvolution summing into its residual's own array:
// on ONNX's real SqueezeNet 1.0 with random weights, the optimized network run as executors run it (gradients
// off, intermediates freed) gives the original's outputs (1e-5 relative); concatenations that something else
// reads, whose convolution writes more than it reads, or whose parts' channels or weights are empty or unknown,
// stay.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/onnx/import/onnx_importer.hpp"
#include "formats/passes/inference_passes.hpp"
#include "run_executor.hpp"

namespace {
using namespace nn;
using test::relative_error;

const std::string kSqueezeNet = std::string(NN_TESTDATA_DIR) + "/onnx/light/light_squeezenet.onnx";

// He-scaled random weights (the file's are constants, which would hide a wrong slice of input channels).
void randomize(ir::Model& model, unsigned seed) {
  std::mt19937 rng(seed);
  for (auto& p : model.parameters) {
    int64_t fan_in = 1;
    for (size_t i = 1; i < p.shape.size(); ++i) fan_in *= p.shape[i];
    std::normal_distribution<float> dist(0.f, p.shape.size() > 1 ? std::sqrt(2.f / float(fan_in)) : 0.1f);
    for (auto& v : p.data) v = dist(rng);
  }
}

std::vector<float> random_input(const ir::Model& model, unsigned seed, int64_t batch = 1) {
  const ir::Executor& exec = model.executors.at(0);
  const ir::Variable* in =
      model.find_network(exec.network_name)->find_variable(exec.data_variable.at(0).variable_name);
  int64_t n = batch;
  for (size_t i = 1; i < in->shape.size(); ++i) n *= in->shape[i];
  std::vector<float> input(static_cast<size_t>(n));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pixel(0.f, 1.f);
  for (auto& v : input) v = pixel(rng);
  return input;
}

std::vector<std::string> split_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> split;
  for (const auto& l : lines)
    if (l.rfind("split_concatenated_convolutions:", 0) == 0) split.push_back(l);
  return split;
}

// The network's first Concatenate (a copy) and the convolution that reads it (its index).
ir::Function first_concatenation(const ir::Network& net) {
  for (const auto& f : net.functions)
    if (f.type == "Concatenate") return f;
  ADD_FAILURE() << "no Concatenate";
  return {};
}
size_t reader_convolution(const ir::Network& net, const ir::Function& cat) {
  for (size_t i = 0; i < net.functions.size(); ++i)
    if (net.functions[i].type == "Convolution" && net.functions[i].inputs.at(0) == cat.outputs.at(0)) return i;
  ADD_FAILURE() << "no convolution reads " << cat.outputs.at(0);
  return 0;
}

TEST(SplitConcatenation, SqueezeNetMatchesOriginal) {
  ir::Model model = formats::onnx::import_model(kSqueezeNet);
  randomize(model, 5);
  const std::vector<float> input = random_input(model, 6);
  const std::vector<float> want = test::run_first_executor(model, input, false);
  ir::Model optimized = model;
  const auto split = split_lines(formats::optimize_for_inference(optimized));
  // Fire modules 2-8 feed the next squeeze convolution, two of them through a MaxPooling; fire 9's
  // concatenation stays (its 1000-channel classifier would write more than the split saves).
  ASSERT_EQ(split.size(), 7u);
  EXPECT_EQ(std::count_if(split.begin(), split.end(),
                          [](const std::string& l) { return l.find("(after ") != std::string::npos; }),
            2);
  size_t concatenations = 0;
  for (const auto& f : optimized.networks.at(0).functions) concatenations += f.type == "Concatenate";
  EXPECT_EQ(concatenations, 1u);
  EXPECT_LE(relative_error(test::run_first_executor(optimized, input, true), want), 1e-5);
  EXPECT_LE(relative_error(test::run_first_executor(optimized, input, false), want),
            1e-5);  // the composed stages too
}

TEST(SplitConcatenation, AnotherReaderKeepsTheConcatenation) {
  ir::Model model = formats::onnx::import_model(kSqueezeNet);
  ir::Network& net = model.networks.at(0);
  const ir::Function cat = first_concatenation(net);
  const std::string joined = cat.outputs.at(0);
  ir::Function extra;  // a second reader that is no convolution
  extra.name = "extra_relu";
  extra.type = "ReLU";
  extra.inputs = {joined};
  extra.outputs = {"extra_out"};
  net.functions.push_back(extra);
  ir::Variable out = *net.find_variable(joined);
  out.name = "extra_out";
  net.variables.push_back(out);
  EXPECT_EQ(formats::split_concatenated_convolutions(model).size(), 6u);
}

// Declared channel counts that add up but are not real (-1 and one too many): the concatenation stays, and
// nothing is sized from them.
TEST(SplitConcatenation, UnknownChannelsKeepTheConcatenation) {
  ir::Model model = formats::onnx::import_model(kSqueezeNet);
  ir::Network& net = model.networks.at(0);
  const ir::Function cat = first_concatenation(net);
  ir::Variable* first = net.find_variable(cat.inputs.at(0));
  ir::Variable* second = net.find_variable(cat.inputs.at(1));
  ASSERT_TRUE(first && second);
  second->shape[1] += first->shape[1] + 1;
  first->shape[1] = -1;
  EXPECT_EQ(formats::split_concatenated_convolutions(model).size(), 6u);
}

// Weights of no output channels (a file's zero dimension): the concatenation stays, nothing divides by zero.
TEST(SplitConcatenation, EmptyWeightsKeepTheConcatenation) {
  ir::Model model = formats::onnx::import_model(kSqueezeNet);
  ir::Network& net = model.networks.at(0);
  const ir::Function cat = first_concatenation(net);
  const ir::Function& conv = net.functions.at(reader_convolution(net, cat));
  for (auto& p : model.parameters)
    if (p.name == conv.inputs.at(1)) p.shape[0] = 0, p.data.clear();
  EXPECT_EQ(formats::split_concatenated_convolutions(model).size(), 6u);
}

// A file that already holds a parameter under the name the split would give a part's weights keeps it as it is.
TEST(SplitConcatenation, NamesInUseStayUntouched) {
  ir::Model model = formats::onnx::import_model(kSqueezeNet);
  const ir::Network& net = model.networks.at(0);
  const ir::Function cat = first_concatenation(net);
  const ir::Function& conv = net.functions.at(reader_convolution(net, cat));
  const std::string taken = conv.name + "/part0/W";
  model.parameters.push_back(ir::Parameter{taken, Shape{2}, {1.f, 2.f}, false});
  EXPECT_EQ(formats::split_concatenated_convolutions(model).size(), 7u);
  const auto kept = std::find_if(model.parameters.begin(), model.parameters.end(),
                                 [&](const ir::Parameter& p) { return p.name == taken; });
  ASSERT_NE(kept, model.parameters.end());
  EXPECT_EQ(kept->shape, Shape{2});
  EXPECT_EQ(kept->data, (std::vector<float>{1.f, 2.f}));
}

// A residual held in the plain layout (a PowScalar of a convolution's blocked output) summed into a convolution
// that writes a oneDNN layout and takes the residual's array in place: the residual's data must be read (into
// that layout) before the output is written over it. (A network's output is never computed in place: a
// function follows.)
TEST(SplitConcatenation, ResidualInPlaceFromAChannelsFirstArray) {
  const std::string conv_param = R"(
    fused_convolution_param {
      base_axis: 1 pad { dim: 1 dim: 1 } stride { dim: 1 dim: 1 } dilation { dim: 1 dim: 1 } group: 1
      decay_rate: 0.9 eps: 1e-5 batch_stat: false nonlinearity: "relu" pad_mode: "constant"
    })";
  std::string text = R"(
network {
  name: "net"
  batch_size: 1
  variable { name: "x" type: "Buffer" shape { dim: B dim: 3 dim: 13 dim: 13 } }
  variable { name: "h" type: "Buffer" shape { dim: B dim: 64 dim: 13 dim: 13 } }
  variable { name: "r" type: "Buffer" shape { dim: B dim: 64 dim: 13 dim: 13 } }
  variable { name: "V" type: "Parameter" shape { dim: 64 dim: 3 dim: 3 dim: 3 } }
  variable { name: "W" type: "Parameter" shape { dim: 64 dim: 64 dim: 3 dim: 3 } }
  variable { name: "y" type: "Buffer" shape { dim: B dim: 64 dim: 13 dim: 13 } }
  variable { name: "out" type: "Buffer" shape { dim: B dim: 64 dim: 13 dim: 13 } }
  function { name: "first" type: "FusedConvolution" input: "x" input: "V" output: "h" )" +
                     conv_param + R"( }
  function { name: "pow" type: "PowScalar" input: "h" output: "r" pow_scalar_param { val: 2 } }
  function { name: "conv" type: "FusedConvolution" input: "h" input: "W" input: "r" output: "y" )" +
                     conv_param + R"( }
  function { name: "after" type: "Tanh" input: "y" output: "out" }
}
executor { name: "runtime" network_name: "net" data_variable { variable_name: "x" data_name: "x" }
  output_variable { variable_name: "out" data_name: "out" } }
)";
  for (int64_t batch : {1, 4}) {  // one primitive; the team's chunks of the batch
    std::string sized = text;
    for (size_t at = 0; (at = sized.find("dim: B", at)) != std::string::npos;)
      sized.replace(at + 5, 1, std::to_string(batch));
    ir::Model model = formats::parse_nntxt(sized, "residual.nntxt");
    model.parameters.push_back(ir::Parameter{"V", Shape{64, 3, 3, 3}, std::vector<float>(64 * 3 * 9), false});
    model.parameters.push_back(ir::Parameter{"W", Shape{64, 64, 3, 3}, std::vector<float>(64 * 64 * 9), false});
    randomize(model, 7);
    const std::vector<float> input = random_input(model, 8, batch);
    EXPECT_LE(relative_error(test::run_first_executor(model, input, true, batch),
                             test::run_first_executor(model, input, false, batch)),
              1e-5)
        << "batch " << batch;
  }
}

}  // namespace
