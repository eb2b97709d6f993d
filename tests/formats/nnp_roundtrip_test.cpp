// Round trips: load -> save_nnp (each parameter placement, archive or directory) -> load gives the same
// model.
#include <gtest/gtest.h>

#include "formats/common/zip_archive.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "formats/nnp/nnp_writer.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

using test::expect_models_equal;
using test::ScratchDir;
using test::testdata;

std::vector<std::string> model_files() {
  auto files = test::find_files(test::testdata_dir(), {"nnp", "nntxt", "prototxt", "h5"});
  return files.empty() ? std::vector<std::string>{"<no testdata>"} : files;
}

struct Mode {
  ParameterFormat format;
  const char* name;
};
const Mode kModes[] = {{ParameterFormat::kProtobuf, "protobuf"},
                       {ParameterFormat::kH5, "h5"},
                       {ParameterFormat::kNntxt, "nntxt"},
                       {ParameterFormat::kExclude, "exclude"}};

class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, EveryParameterPlacement) {
  const std::string path = GetParam();
  NN_REQUIRE_TESTDATA(path);
  ir::Model original = load_model({path});
  ScratchDir dir;
  for (const Mode& mode : kModes) {
    SCOPED_TRACE(mode.name);
    NnpSaveOptions options;
    options.parameter_format = mode.format;
    const std::string out = dir.path(std::string("model_") + mode.name + ".nnp");
    save_nnp(original, out, options);
    ir::Model back = load_model({out});
    ir::Model expected = original;
    if (mode.format == ParameterFormat::kExclude) expected.parameters.clear();
    expect_models_equal(expected, back);
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string rel = std::filesystem::path(info.param).lexically_relative(test::testdata_dir()).string();
  std::string name;
  for (char c : rel) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Testdata, RoundTrip, ::testing::ValuesIn(model_files()), test_name);

TEST(NnpWriter, MembersPerParameterPlacement) {
  ir::Model m =
      parse_nntxt(R"(network { name: "n" variable { name: "w" type: "Parameter" shape { dim: 2 } } })", "m.nntxt");
  m.parameters = {{"w", {2}, {1.5f, -2.f}, true}};
  ScratchDir dir;
  struct Expect {
    ParameterFormat format;
    std::vector<std::string> names;
  };
  for (const auto& e :
       {Expect{ParameterFormat::kProtobuf, {"nnp_version.txt", "network.nntxt", "parameter.protobuf"}},
        Expect{ParameterFormat::kH5, {"nnp_version.txt", "network.nntxt", "parameter.h5"}},
        Expect{ParameterFormat::kNntxt, {"nnp_version.txt", "network.nntxt"}},
        Expect{ParameterFormat::kExclude, {"nnp_version.txt", "network.nntxt"}}}) {
    NnpSaveOptions options;
    options.parameter_format = e.format;
    save_nnp(m, dir.path("m.nnp"), options);
    ZipReader zip = ZipReader::open_file(dir.path("m.nnp"));
    EXPECT_EQ(zip.names(), e.names);
    EXPECT_EQ(zip.read("nnp_version.txt"), "0.1\n");
    const std::string text = zip.read("network.nntxt");
    EXPECT_EQ(text.find("parameter {") != std::string::npos, e.format == ParameterFormat::kNntxt) << text;
  }
}

TEST(NnpWriter, UpstreamTextLayout) {
  ir::Model m = parse_nntxt(
      R"(network { function { output: "y" input: "x" type: "Convolution" name: "c"
                              convolution_param { group: 1 pad { dim: 0 dim: 0 } } }
                   variable { shape: { dim: -1 dim: 1 } type: "Buffer" name: "x" }
                   name: "runtime" batch_size: 128 })",
      "m.nntxt");
  const std::string expected =
      "network {\n  name: \"runtime\"\n  batch_size: 128\n  variable {\n    name: \"x\"\n    type: "
      "\"Buffer\"\n"
      "    shape {\n      dim: -1\n      dim: 1\n    }\n  }\n  function {\n    name: \"c\"\n    type: "
      "\"Convolution\"\n"
      "    input: \"x\"\n    output: \"y\"\n    convolution_param {\n      pad {\n        dim: 0\n        "
      "dim: 0\n"
      "      }\n      group: 1\n    }\n  }\n}\n";
  EXPECT_EQ(model_to_nntxt(m), expected);
}

TEST(NnpWriter, DirectoryTargetGetsTheSameMembers) {
  const std::string path = testdata("nnc_results/qiiajia_lenet_param_h5/results.nnp");
  NN_REQUIRE_TESTDATA(path);
  ir::Model m = load_model({path});
  ScratchDir dir;
  const std::string out = dir.path("exported") + "/";
  NnpSaveOptions options;
  options.parameter_format = ParameterFormat::kH5;
  save_nnp(m, out, options);
  for (const char* name :
       {"nnp_version.txt", "network.nntxt", "parameter.h5", "Optimizer_Adam_optimizer.h5.optimizer"})
    EXPECT_TRUE(std::filesystem::exists(dir.path("exported") + "/" + name)) << name;
  expect_models_equal(m, load_model({dir.path("exported")}));
}

TEST(NnpWriter, SolverStatesInBothVariants) {
  const std::string path = testdata("nnc_results/qiiajia_lenet_param_h5/results.nnp");
  NN_REQUIRE_TESTDATA(path);
  ir::Model m = load_model({path});
  ASSERT_FALSE(m.optimizers.at(0).solver.states.empty());
  ScratchDir dir;
  NnpSaveOptions options;
  options.solver_states = SolverStateFormat::kProtobuf;
  save_nnp(m, dir.path("pb_states.nnp"), options);
  EXPECT_TRUE(ZipReader::open_file(dir.path("pb_states.nnp")).contains("optimizer.protobuf.optimizer"));
  expect_models_equal(m, load_model({dir.path("pb_states.nnp")}));
  options.solver_states = SolverStateFormat::kNone;
  save_nnp(m, dir.path("no_states.nnp"), options);
  EXPECT_TRUE(load_model({dir.path("no_states.nnp")}).optimizers.at(0).solver.states.empty());
}

TEST(NnpWriter, TrainStyleArchiveWithVerbatimConfig) {
  ir::Model m =
      parse_nntxt("network { name: \"n\" }\noptimizer { name: \"o\" solver { type: \"Sgd\" } }\n", "c.nntxt");
  m.parameters = {{"w", {1}, {1.f}, true}};
  m.optimizers[0].solver.states["w"].t = 3;
  m.optimizers[0].solver.states["w"].state_parameter["m"] = {{1}, {0.25f}};
  ScratchDir dir;
  NnpSaveOptions options;
  options.parameter_format = ParameterFormat::kH5;
  options.network_member = "net.nntxt";
  options.network_text =
      "# the user's config, unmodified\nnetwork { name: \"n\" }\noptimizer { name: \"o\" solver { type: "
      "\"Sgd\" } }\n";
  save_nnp(m, dir.path("results.nnp"), options);
  ZipReader zip = ZipReader::open_file(dir.path("results.nnp"));
  EXPECT_EQ(zip.names(), (std::vector<std::string>{"nnp_version.txt", "net.nntxt", "parameter.h5",
                                                   "o_Sgd_optimizer.h5.optimizer"}));
  EXPECT_EQ(zip.read("net.nntxt"), options.network_text);
  ir::Model back = load_model({dir.path("results.nnp")});
  EXPECT_EQ(back.optimizers[0].solver.states.at("w").t, 3u);
  EXPECT_EQ(back.optimizers[0].solver.states.at("w").state_parameter.at("m").data, std::vector<float>{0.25f});
}

}  // namespace
}  // namespace nn::formats
