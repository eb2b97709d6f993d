// Network splitting (formats/passes/split_network): ranges from -S and from a function set, sub-models and
// the YAML summary, on a small model and on the real LeNet.
#include "formats/passes/split_network.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::test {

namespace {

// x -> Affine(W, b) -> y -> ReLU -> z -> Tanh -> t -> Sigmoid -> s
ir::Model chain() {
  ir::Model m;
  ir::Network n;
  n.name = "net";
  n.variables = {{"x", "Buffer", {}, {-1, 4}, {}}, {"W", "Parameter", {}, {4, 3}, {}},
                 {"b", "Parameter", {}, {3}, {}},  {"y", "Buffer", {}, {-1, 3}, {}},
                 {"z", "Buffer", {}, {-1, 3}, {}}, {"t", "Buffer", {}, {-1, 3}, {}},
                 {"s", "Buffer", {}, {-1, 3}, {}}};
  auto fn = [](std::string name, std::string type, std::vector<std::string> in, std::vector<std::string> out) {
    ir::Function f;
    f.name = std::move(name);
    f.type = std::move(type);
    f.inputs = std::move(in);
    f.outputs = std::move(out);
    return f;
  };
  n.functions = {fn("fc", "Affine", {"x", "W", "b"}, {"y"}), fn("relu", "ReLU", {"y"}, {"z"}),
                 fn("tanh", "Tanh", {"z"}, {"t"}), fn("sig", "Sigmoid", {"t"}, {"s"})};
  m.networks = {n};
  m.parameters = {{"W", {4, 3}, std::vector<float>(12, 1.0f), true},
                  {"b", {3}, std::vector<float>(3, 0.0f), true},
                  {"unused", {1}, {2.0f}, true}};
  ir::Executor e;
  e.name = "runtime";
  e.network_name = "net";
  e.data_variable = {{"x", "x"}};
  e.output_variable = {{"s", "", "s"}};
  e.parameter_variable = {{"W"}, {"b"}};
  m.executors = {e};
  return m;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const nn::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SplitNetwork, RangesFromSpec) {
  auto r = parse_split_ranges("0-1,2-", 4);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].first, 0);
  EXPECT_EQ(r[0].last, 1);
  EXPECT_EQ(r[1].first, 2);
  EXPECT_EQ(r[1].last, 3);
  r = parse_split_ranges("-2", 4);
  EXPECT_EQ(r[0].first, 0);
  EXPECT_EQ(r[0].last, 2);
  EXPECT_NE(error_of([] { parse_split_ranges("1-9", 4); }).find("range must be in 0 to 3"), std::string::npos);
  EXPECT_NE(error_of([] { parse_split_ranges("3-1", 4); }).find("range must be in 0 to 3"), std::string::npos);
  EXPECT_NE(error_of([] { parse_split_ranges("2", 4); }).find("range must be \"x0-y0,x1-y1,...\""),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_split_ranges("a-b", 4); }).find("x0-y0"), std::string::npos);
}

TEST(SplitNetwork, RangesFromSupportedSet) {
  const ir::Model m = chain();
  const auto& net = split_target_network(m);
  EXPECT_FALSE(uses_unsupported(net, {"Affine", "ReLU", "Tanh", "Sigmoid"}));
  auto r = supported_ranges(net, {"Affine", "Tanh", "Sigmoid"});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].first, 0);
  EXPECT_EQ(r[0].last, 0);
  EXPECT_EQ(r[1].first, 2);
  EXPECT_EQ(r[1].last, 3);
  r = supported_ranges(net, {"ReLU"});  // an unsupported first function yields no range
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].first, 1);
  EXPECT_EQ(r[0].last, 1);
}

TEST(SplitNetwork, ShrinkKeepsVariablesParametersAndBufferEnds) {
  const ir::Model piece = shrink_model(chain(), {0, 1});
  ASSERT_EQ(piece.networks.size(), 1u);
  const auto& net = piece.networks[0];
  ASSERT_EQ(net.functions.size(), 2u);
  EXPECT_EQ(net.variables.size(), 5u);  // x W b y z
  ASSERT_EQ(piece.parameters.size(), 2u);
  const auto& e = piece.executors.at(0);
  ASSERT_EQ(e.data_variable.size(), 1u);
  EXPECT_EQ(e.data_variable[0].variable_name, "x");
  ASSERT_EQ(e.output_variable.size(), 1u);
  EXPECT_EQ(e.output_variable[0].variable_name, "z");
  EXPECT_EQ(e.parameter_variable.size(), 2u);
  EXPECT_NE(error_of([] { shrink_model(chain(), {2, 7}); }).find("outside 0-3"), std::string::npos);
}

TEST(SplitNetwork, OutputNamesAndSummary) {
  EXPECT_EQ(split_output_name("dir/net.nnb", {3, 4}), "dir/net_3_4.nnb");
  EXPECT_EQ(split_output_name("out", {0, 9}), "out_0_9");
  const ir::Model m = chain();
  std::vector<std::pair<std::string, ir::Model>> pieces;
  pieces.emplace_back("o_2_3.nnb", shrink_model(m, {2, 3}));
  pieces.emplace_back("o_0_0.nnb", shrink_model(m, {0, 0}));
  EXPECT_EQ(split_summary(pieces),
            "o_0_0.nnb:\n  input:\n  - name: x\n    shape: (-1, 4)\n  output:\n  - name: y\n    shape: (-1, 3)\n"
            "o_2_3.nnb:\n  input:\n  - name: z\n    shape: (-1, 3)\n  output:\n  - name: s\n    shape: (-1, 3)\n");
}

TEST(SplitNetwork, RealLenetWithoutPooling) {
  const char* env = std::getenv("NN_TESTDATA_DIR");
  const std::filesystem::path lenet = std::filesystem::path(env && *env ? env : NN_TESTDATA_DIR) /
                                      "nnc_results/nnc_cli_demo_mnist_lenet/result2.nnp";
  if (!std::filesystem::exists(lenet)) GTEST_SKIP() << lenet << " not present";
  const ir::Model m = expand_model(load_model({lenet.string()}));
  const auto& net = split_target_network(m);
  std::set<std::string> supported;
  for (const auto& f : net.functions)
    if (f.type != "MaxPooling") supported.insert(f.type);
  const auto ranges = supported_ranges(net, supported);
  ASSERT_GE(ranges.size(), 2u);
  for (const auto& r : ranges) {
    const ir::Model piece = shrink_model(m, r);
    for (const auto& f : piece.networks[0].functions) EXPECT_NE(f.type, "MaxPooling");
    EXPECT_FALSE(piece.executors[0].data_variable.empty());
    EXPECT_FALSE(piece.executors[0].output_variable.empty());
    for (const auto& p : piece.parameters) EXPECT_NE(piece.networks[0].find_variable(p.name), nullptr) << p.name;
  }
}

}  // namespace nn::formats::test
