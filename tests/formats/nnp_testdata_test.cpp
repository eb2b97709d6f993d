// Every NNP-family model file in shared/testdata loads; spot checks of what specific files contain.
#include <gtest/gtest.h>

#include <regex>

#include "formats/nnp/nnp_reader.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

using test::testdata;
using test::testdata_dir;

std::vector<std::string> model_files() {
  auto files = test::find_files(testdata_dir(), {"nnp", "nntxt", "prototxt", "protobuf", "h5"});
  return files.empty() ? std::vector<std::string>{"<no testdata>"} : files;
}

class EveryTestdataModel : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryTestdataModel, Loads) {
  const std::string path = GetParam();
  NN_REQUIRE_TESTDATA(path);
  ir::Model m;
  try {
    m = load_model({path});
  } catch (const nn::Error& e) {
    FAIL() << e.what();
  }
  const bool parameters_only = path.size() > 3 && path.compare(path.size() - 3, 3, ".h5") == 0;
  if (parameters_only) {
    EXPECT_FALSE(m.parameters.empty()) << path;
    return;
  }
  EXPECT_FALSE(m.networks.empty()) << path;
  for (const auto& net : m.networks)
    for (const auto& f : net.functions) EXPECT_FALSE(f.type.empty()) << path << ": " << f.name;
  for (const auto& p : m.parameters) EXPECT_EQ(shape_size(p.shape), int64_t(p.data.size())) << p.name;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string rel = std::filesystem::path(info.param).lexically_relative(testdata_dir()).string();
  std::string name;
  for (char c : rel) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Testdata, EveryTestdataModel, ::testing::ValuesIn(model_files()), test_name);

TEST(TestdataModels, DeflatedNncArchiveWithPrototxtAndExtraMembers) {
  const std::string path = testdata("nnc_results/nnc_cli_demo_mnist_lenet/result2.nnp");
  NN_REQUIRE_TESTDATA(path);
  ir::Model m = load_model({path});
  EXPECT_EQ(m.networks.size(), 3u);
  ASSERT_TRUE(m.training_config);
  EXPECT_FALSE(m.parameters.empty());
  ASSERT_NE(m.find_executor("Executor"), nullptr);
  EXPECT_NE(m.find_network(m.find_executor("Executor")->network_name), nullptr);
  EXPECT_EQ(m.optimizers.at(0).solver.type, "Adam");
  EXPECT_EQ(m.optimizers.at(0).solver.param_name, "adam_param");
  EXPECT_TRUE(m.optimizers.at(0).solver.params.has("beta2"));
}

TEST(TestdataModels, H5ParametersAndSolverStatesInsideNnp) {
  const std::string path = testdata("nnc_results/qiiajia_lenet_param_h5/results.nnp");
  NN_REQUIRE_TESTDATA(path);
  ir::Model m = load_model({path});
  ASSERT_FALSE(m.parameters.empty());
  ASSERT_EQ(m.optimizers.size(), 1u);
  const auto& states = m.optimizers[0].solver.states;
  ASSERT_FALSE(states.empty());
  for (const auto& [param, state] : states) {
    const ir::Parameter* p = m.find_parameter(param);
    ASSERT_NE(p, nullptr) << param;
    EXPECT_GT(state.t, 0u) << param;
    ASSERT_EQ(state.state_parameter.size(), 2u) << param;  // Adam: mean, var
    EXPECT_EQ(state.state_parameter.at("mean").shape, p->shape) << param;
    EXPECT_EQ(state.state_parameter.at("var").data.size(), p->data.size()) << param;
  }
}

TEST(TestdataModels, SeparateNntxtPlusH5) {
  const std::string dir = testdata("nnc_results/delta3_text_classifier/");
  NN_REQUIRE_TESTDATA(dir + "parameters.h5");
  ir::Model m = load_model({dir + "net.nntxt", dir + "parameters.h5"});
  // The file holds 24 HDF5 objects: 14 parameter datasets (3 Affine W/b, 2 BN beta/gamma/mean/var) and 10
  // groups.
  ASSERT_EQ(m.parameters.size(), 14u);
  EXPECT_EQ(m.parameters[0].name, "Affine/affine/W");
  EXPECT_EQ(m.parameters[2].name, "BatchNormalization/bn/beta");  // index order, not path order
  EXPECT_EQ(m.parameters[13].name, "Affine_3/affine/b");
  EXPECT_FALSE(m.find_parameter("BatchNormalization/bn/mean")->need_grad);
  EXPECT_TRUE(m.find_parameter("BatchNormalization/bn/gamma")->need_grad);
  EXPECT_FALSE(m.networks.empty());
  // Every parameter the runtime network uses has data of the declared shape.
  const ir::Network* runtime = m.find_network(m.executors.at(0).network_name);
  ASSERT_NE(runtime, nullptr);
  for (const auto& v : runtime->variables) {
    if (v.type != "Parameter") continue;
    const ir::Parameter* p = m.find_parameter(v.name);
    ASSERT_NE(p, nullptr) << v.name;
    EXPECT_EQ(p->shape, v.shape) << v.name;
  }
}

TEST(TestdataModels, OptimizerStatesNeedTheirOptimizer) {
  const std::string path = testdata("nnc_results/spresense_keyboard_sound/results.nnp");
  NN_REQUIRE_TESTDATA(path);
  ir::Model m = load_model({path});
  ASSERT_FALSE(m.optimizers.empty());
  EXPECT_FALSE(m.optimizers[0].solver.states.empty());
  LoadOptions no_states;
  no_states.solver_states = false;
  EXPECT_TRUE(load_model({path}, no_states).optimizers[0].solver.states.empty());
  LoadOptions no_params;
  no_params.parameters = false;
  EXPECT_TRUE(load_model({path}, no_params).parameters.empty());
}

}  // namespace
}  // namespace nn::formats
