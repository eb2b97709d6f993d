// Loop expansion (docs/nnp_format.md#loop-expansion): hand-computed small cases, upstream loop networks,
// invariants.
#include "formats/passes/expand_repeat.hpp"

#include <gtest/gtest.h>

#include <set>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/nnp/parameter_h5.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

using test::error_of;
using test::testdata;

std::vector<std::string> names_of(const std::vector<ir::Function>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) out.push_back(f.name);
  return out;
}

const char* kRepeatLoop = R"(
network {
  name: "n"
  repeat_info { id: "R" times: 3 }
  variable { name: "x" type: "Buffer" shape { dim: -1 dim: 4 } }
  variable { name: "h" type: "Buffer" repeat_id: "R" shape { dim: -1 dim: 4 } }
  variable { name: "fc{R}/W" type: "Parameter" repeat_id: "R" shape { dim: 4 dim: 4 } }
  variable { name: "shared/W" type: "Parameter" shape { dim: 4 dim: 4 } }
  variable { name: "y" type: "Buffer" repeat_id: "R" shape { dim: -1 dim: 4 } }
  variable { name: "out" type: "Buffer" shape { dim: -1 dim: 4 } }
  variable { name: "z" type: "Buffer" shape { dim: -1 dim: 4 } }
  function { name: "t" type: "Tanh" input: "out" output: "z" }
  function { name: "start" type: "RepeatStart" repeat_id: "R" input: "x" input: "y" output: "h"
             repeat_param { repeat_id: "R" times: 3 } }
  function { name: "fc" type: "Affine" repeat_id: "R" input: "h" input: "fc{R}/W" input: "shared/W"
             output: "y" affine_param { base_axis: 1 } }
  function { name: "end" type: "RepeatEnd" repeat_id: "R" input: "y" output: "out"
             repeat_param { repeat_id: "R" times: 3 } }
}
optimizer { name: "o" network_name: "n"
            parameter_variable { variable_name: "shared/W" learning_rate_multiplier: 1 }
            parameter_variable { variable_name: "fc{R}/W" learning_rate_multiplier: 1 } }
executor { name: "e" network_name: "n" parameter_variable { variable_name: "fc{R}/W" } }
)";

TEST(ExpandRepeat, RepeatStartEndByHand) {
  ir::Model m = expand_model(parse_nntxt(kRepeatLoop, "loop.nntxt"));
  const ir::Network& n = m.networks[0];
  EXPECT_TRUE(n.repeat_info.empty());
  std::vector<std::string> vars;
  for (const auto& v : n.variables) vars.push_back(v.name);
  EXPECT_EQ(vars, (std::vector<std::string>{"x", "h_R_0", "h_R_1", "h_R_2", "fc[0]/W", "fc[1]/W", "fc[2]/W",
                                            "shared/W", "y_R_0", "y_R_1", "y_R_2", "out", "z"}));
  for (const auto& v : n.variables) EXPECT_TRUE(v.repeat_id.empty()) << v.name;
  // Sorted: the chain of copies, then the consumer of the RepeatEnd output (listed first in the file).
  ASSERT_EQ(names_of(n.functions), (std::vector<std::string>{"fc_R_0", "fc_R_1", "fc_R_2", "t"}));
  EXPECT_EQ(n.functions[0].inputs, (std::vector<std::string>{"x", "fc[0]/W", "shared/W"}));
  EXPECT_EQ(n.functions[1].inputs, (std::vector<std::string>{"y_R_0", "fc[1]/W", "shared/W"}));
  EXPECT_EQ(n.functions[2].inputs, (std::vector<std::string>{"y_R_1", "fc[2]/W", "shared/W"}));
  EXPECT_EQ(n.functions[2].outputs, (std::vector<std::string>{"y_R_2"}));
  EXPECT_EQ(n.functions[3].inputs, (std::vector<std::string>{"y_R_2"}));
  EXPECT_EQ(n.functions[1].attrs.get_int("base_axis", 0), 1);
  EXPECT_TRUE(n.functions[1].repeat_id.empty());
  // Parameter lists: concrete names, sorted, multipliers dropped (as upstream).
  std::vector<std::string> params;
  for (const auto& pv : m.optimizers[0].parameter_variable) {
    params.push_back(pv.variable_name);
    EXPECT_EQ(pv.learning_rate_multiplier, 0.0);
  }
  EXPECT_EQ(params, (std::vector<std::string>{"fc[0]/W", "fc[1]/W", "fc[2]/W", "shared/W"}));
  EXPECT_EQ(m.executors[0].parameter_variable.size(), 3u);
}

TEST(ExpandRepeat, KeptOptimizerListsSayWhatTrains) {
  const ir::Model original = parse_nntxt(kRepeatLoop, "loop.nntxt");
  ir::Model m = expand_model(original, OptimizerLists::kKept);
  EXPECT_TRUE(m.networks[0].repeat_info.empty());
  ASSERT_EQ(m.optimizers[0].parameter_variable.size(), 2u);
  EXPECT_EQ(m.optimizers[0].parameter_variable[1].variable_name, "fc{R}/W");
  EXPECT_EQ(m.optimizers[0].parameter_variable[1].learning_rate_multiplier, 1.0);
  EXPECT_EQ(m.executors[0].parameter_variable.size(), 3u);  // executors' lists are expanded either way
}

TEST(ExpandRepeat, RecurrentDelayByHand) {
  const std::string path = testdata("nnabla/loop_control/recurrent_delay_test.nntxt");
  NN_REQUIRE_TESTDATA(path);
  ir::Model m = load_model({path});
  const ir::Network* main = m.find_network("Main");
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->functions.size(), 10u);
  EXPECT_EQ(main->variables.size(), 17u);
  ir::Network n = expand_network(*main);
  // 12 variables outside the loop + 5 loop variables x 28 iterations.
  EXPECT_EQ(n.variables.size(), 12u + 5u * 28u);
  // Split + 3 loop functions x 28 + Stack + Slice, Affine, Sigmoid, BinaryCrossEntropy; Delay is gone.
  ASSERT_EQ(n.functions.size(), 1u + 3u * 28u + 1u + 4u);
  const ir::Function& split = n.functions[0];
  EXPECT_EQ(split.name, "RecurrentInput");
  EXPECT_EQ(split.type, "Split");
  EXPECT_TRUE(split.has_param);
  EXPECT_EQ(split.attrs.get_int("axis", -1), 2);
  EXPECT_FALSE(split.recurrent_param);
  ASSERT_EQ(split.outputs.size(), 28u);
  EXPECT_EQ(split.outputs[27], "RecurrentInput_RecurrentInput_27");
  EXPECT_EQ(names_of({n.functions[1], n.functions[2], n.functions[3], n.functions[4]}),
            (std::vector<std::string>{"Concatenate_RecurrentInput_0", "Affine_2_RecurrentInput_0",
                                      "Tanh_RecurrentInput_0", "Concatenate_RecurrentInput_1"}));
  EXPECT_EQ(n.functions[1].inputs, (std::vector<std::string>{"RecurrentInput_RecurrentInput_0", "Delay_Initial"}));
  EXPECT_EQ(n.functions[4].inputs,
            (std::vector<std::string>{"RecurrentInput_RecurrentInput_1", "Tanh_RecurrentInput_0"}));
  EXPECT_EQ(n.functions[2].inputs[1], "Affine_2/affine/W");  // shared parameter
  const ir::Function& stack = n.functions[85];
  EXPECT_EQ(stack.type, "Stack");
  EXPECT_EQ(stack.attrs.get_int("axis", -1), 2);
  ASSERT_EQ(stack.inputs.size(), 28u);
  EXPECT_EQ(stack.inputs[27], "Tanh_RecurrentInput_27");
  EXPECT_EQ(names_of({n.functions[86], n.functions[87], n.functions[88], n.functions[89]}),
            (std::vector<std::string>{"Slice", "Affine", "Sigmoid", "BinaryCrossEntropy"}));
}

// The golden driver wrote custom_params.h5 with exactly the parameters of the expanded executor network.
void expect_parameters_match_golden(const std::string& name) {
  const std::string path = testdata("nnabla/loop_control/" + name + ".nntxt");
  const std::string params = testdata("golden/nnabla/loop_control/" + name + "_nntxt/custom_params.h5");
  if (!std::filesystem::exists(params)) GTEST_SKIP() << "testdata missing: " << params;
  ir::Model m = expand_model(load_model({path}));
  std::set<std::string> golden;
  for (const auto& p : nnp::read_h5_parameters_file(params)) golden.insert(p.name);
  const ir::Network* runtime = m.find_network(m.executors.at(0).network_name);
  ASSERT_NE(runtime, nullptr);
  std::set<std::string> used;
  for (const auto& f : runtime->functions)
    for (const auto& in : f.inputs)
      if (const ir::Variable* v = runtime->find_variable(in); v && v->type == "Parameter") used.insert(in);
  EXPECT_EQ(used, golden);
  // The optimizer's list names every concrete copy, nested loops included.
  std::set<std::string> listed;
  for (const auto& pv : m.optimizers.at(0).parameter_variable) listed.insert(pv.variable_name);
  for (const auto& p : golden) EXPECT_TRUE(listed.count(p)) << p;
  for (const auto& p : listed) EXPECT_EQ(p.find('{'), std::string::npos) << p;
}

TEST(ExpandRepeat, NestedLoopParameterNamesMatchTheGoldenParameters) {
  expect_parameters_match_golden("nested_loop_test");
}

TEST(ExpandRepeat, MixedLoopParameterNamesMatchTheGoldenParameters) {
  expect_parameters_match_golden("mixed_loop_test");
}

std::vector<std::string> loop_files() {
  std::vector<std::string> out;
  for (const auto& dir : {"nnabla/loop_control", "nnabla/nnc_sample_projects"})
    for (const auto& f : test::find_files(test::testdata_dir() / dir, {"nntxt"})) out.push_back(f);
  return out;
}

TEST(ExpandRepeat, EveryUpstreamLoopNetworkExpandsToAValidDag) {
  const auto files = loop_files();
  if (files.empty()) GTEST_SKIP() << "no testdata";
  size_t with_loops = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    ir::Model original = load_model({path});
    ir::Model m = expand_model(original);
    for (size_t k = 0; k < m.networks.size(); ++k) {
      const auto& before = original.networks[k];
      const auto& n = m.networks[k];
      SCOPED_TRACE(n.name);
      if (!before.repeat_info.empty()) {
        ++with_loops;
        EXPECT_GT(n.functions.size(), before.functions.size());
        EXPECT_GT(n.variables.size(), before.variables.size());
      } else {
        EXPECT_EQ(n.functions.size(), before.functions.size());
      }
      EXPECT_TRUE(n.repeat_info.empty());
      std::set<std::string> declared, produced, names;
      for (const auto& v : n.variables) {
        EXPECT_TRUE(v.repeat_id.empty()) << v.name;
        EXPECT_TRUE(declared.insert(v.name).second) << "duplicate variable " << v.name;
      }
      for (const auto& f : n.functions) {
        for (const char* t : {"RepeatStart", "RepeatEnd", "RecurrentInput", "RecurrentOutput", "Delay"})
          EXPECT_NE(f.type, t) << f.name;
        EXPECT_TRUE(names.insert(f.name).second) << "duplicate function " << f.name;
        for (const auto& o : f.outputs) produced.insert(o);
      }
      std::set<std::string> seen_outputs;
      for (const auto& f : n.functions) {
        for (const auto& in : f.inputs) {
          EXPECT_TRUE(declared.count(in)) << f.name << " reads undeclared " << in;
          // Topological order: an input produced in the network is produced before it is read.
          EXPECT_TRUE(!produced.count(in) || seen_outputs.count(in)) << f.name << " reads " << in << " too early";
        }
        for (const auto& o : f.outputs) {
          EXPECT_TRUE(declared.count(o)) << f.name << " writes undeclared " << o;
          seen_outputs.insert(o);
        }
      }
    }
  }
  EXPECT_GE(with_loops, 20u);
}

TEST(ExpandRepeat, CycleIsAnError) {
  ir::Model m = parse_nntxt(R"(network { name: "cyc"
      function { name: "a" type: "Tanh" input: "z" output: "y" }
      function { name: "b" type: "Tanh" input: "y" output: "z" } })",
                            "c.nntxt");
  std::string msg = error_of([&] { expand_network(m.networks[0]); });
  EXPECT_NE(msg.find("network 'cyc' is not a DAG: function 'a' (Tanh) is part of a cycle"), std::string::npos)
      << msg;
}

TEST(ExpandRepeat, SortKeepsAnAlreadySortedNetworkAndFixesAnUnsortedOne) {
  ir::Model m = parse_nntxt(R"(network { name: "n"
      function { name: "c" type: "Tanh" input: "y" output: "z" }
      function { name: "a" type: "Tanh" input: "x" output: "w" }
      function { name: "b" type: "Tanh" input: "w" output: "y" } })",
                            "s.nntxt");
  auto sorted = sort_functions(m.networks[0].functions, "n");
  EXPECT_EQ(names_of(sorted), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(names_of(sort_functions(sorted, "n")), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ExpandRepeat, LegacyParameterNamesSwitchToSuffixNaming) {
  ir::Model m = parse_nntxt(R"(network { name: "n" repeat_info { id: "R" times: 2 }
      variable { name: "w" type: "Parameter" repeat_id: "R" shape { dim: 1 } }
      variable { name: "in" type: "Buffer" shape { dim: 1 } }
      variable { name: "x" type: "Buffer" repeat_id: "R" shape { dim: 1 } }
      function { name: "f" type: "Mul2" repeat_id: "R" input: "in" input: "w" output: "x" } })",
                            "legacy.nntxt");
  m.parameters = {{"wR[0]", {1}, {1.f}, true}};
  ir::Model e = expand_model(m);
  EXPECT_EQ(e.networks[0].variables[0].name, "w_R_0");
  // Independent copies come out in reverse order (reverse DFS post-order), as upstream's sort does.
  EXPECT_EQ(names_of(e.networks[0].functions), (std::vector<std::string>{"f_R_1", "f_R_0"}));
  EXPECT_EQ(e.networks[0].functions[0].inputs, (std::vector<std::string>{"in", "w_R_1"}));
  m.parameters.clear();
  EXPECT_EQ(expand_model(m).networks[0].variables[0].name, "w");
}

// NNC files of 2017 (12_residual_learning) name the parameters inside RepeatStart blocks without the
// '{id}' marker: upstream shares one parameter across the iterations. Three nested loops of 8 stay small
// (copying the name per iteration made the name lists grow as 8^depth and took gigabytes).
TEST(ExpandRepeat, UnmarkedParametersInNestedLoopsAreSharedAcrossIterations) {
  std::string text = "network { name: \"n\"\n";
  const std::vector<std::string> ids = {"A", "B", "C"};
  for (const auto& id : ids) text += "  repeat_info { id: \"" + id + "\" times: 8 }\n";
  text +=
      "  variable { name: \"x\" type: \"Buffer\" shape { dim: -1 dim: 4 } }\n"
      "  variable { name: \"out\" type: \"Buffer\" shape { dim: -1 dim: 4 } }\n";
  std::string in = "x", ids_attr;
  for (size_t d = 0; d < ids.size(); ++d) {
    ids_attr += " repeat_id: \"" + ids[d] + "\"";
    const std::string h = "h" + ids[d], y = "y" + ids[d];
    text += "  variable { name: \"" + h + "\" type: \"Buffer\"" + ids_attr + " shape { dim: -1 dim: 4 } }\n";
    text += "  variable { name: \"" + y + "\" type: \"Buffer\"" + ids_attr + " shape { dim: -1 dim: 4 } }\n";
    text += "  function { name: \"start" + ids[d] + "\" type: \"RepeatStart\"" + ids_attr + " input: \"" + in +
            "\" input: \"" + y + "\" output: \"" + h + "\" repeat_param { repeat_id: \"" + ids[d] +
            "\" times: 8 } }\n";
    in = h;
  }
  text += "  variable { name: \"conv/W\" type: \"Parameter\"" + ids_attr + " shape { dim: 4 dim: 4 } }\n";
  text += "  function { name: \"fc\" type: \"Affine\"" + ids_attr + " input: \"" + in +
          "\" input: \"conv/W\" output: \"yC\" affine_param { base_axis: 1 } }\n";
  // Close the loops from the innermost: RepeatEnd of C gives yB, of B gives yA, of A gives out.
  const std::vector<std::pair<std::string, std::string>> ends = {{"yC", "yB"}, {"yB", "yA"}, {"yA", "out"}};
  std::string end_ids = ids_attr;
  for (size_t d = 0; d < ids.size(); ++d) {
    const std::string id = ids[ids.size() - 1 - d];
    text += "  function { name: \"end" + id + "\" type: \"RepeatEnd\"" + end_ids + " input: \"" + ends[d].first +
            "\" output: \"" + ends[d].second + "\" repeat_param { repeat_id: \"" + id + "\" times: 8 } }\n";
    end_ids = end_ids.substr(0, end_ids.rfind(" repeat_id:"));
  }
  text += "}\noptimizer { name: \"o\" network_name: \"n\" parameter_variable { variable_name: \"conv/W\" } }\n";
  ir::Model e = expand_model(parse_nntxt(text, "nested_2017.nntxt"));
  const ir::Network& n = e.networks[0];
  size_t parameters = 0, affines = 0;
  for (const auto& v : n.variables) parameters += v.type == "Parameter";
  for (const auto& f : n.functions) affines += f.type == "Affine";
  EXPECT_EQ(parameters, 1u);
  EXPECT_EQ(affines, 512u);
  for (const auto& f : n.functions) EXPECT_EQ(f.inputs.at(1), "conv/W") << f.name;
  ASSERT_EQ(e.optimizers[0].parameter_variable.size(), 1u);
  EXPECT_EQ(e.optimizers[0].parameter_variable[0].variable_name, "conv/W");
}

TEST(ExpandRepeat, AbsurdLoopSizesAreRefusedBeforeCopying) {
  ir::Model m = parse_nntxt(
      R"(network { name: "n" repeat_info { id: "A" times: 5000 } repeat_info { id: "B" times: 5000 }
      function { name: "f" type: "Tanh" repeat_id: "A" repeat_id: "B" input: "x" output: "y" } })",
      "big.nntxt");
  std::string msg = error_of([&] { expand_network(m.networks[0]); });
  EXPECT_NE(msg.find("repeat_info 'B': unrolling 5000 iterations would create more than 10000000 functions"),
            std::string::npos)
      << msg;
  m.networks[0].repeat_info[0].times = 2000000;
  msg = error_of([&] { expand_network(m.networks[0]); });
  EXPECT_NE(msg.find("repeat_info 'A': bad times 2000000"), std::string::npos) << msg;
}

TEST(ExpandRepeat, BadLoopControlIsAnError) {
  ir::Model m = parse_nntxt(R"(network { name: "n" repeat_info { id: "R" times: 2 }
      function { name: "d" type: "Delay" input: "x" output: "y" recurrent_param { repeat_id: "R" } } })",
                            "bad.nntxt");
  std::string msg = error_of([&] { expand_network(m.networks[0]); });
  EXPECT_NE(msg.find("network 'n': function 'd' (Delay): needs 2 input(s) and 1 output(s)"), std::string::npos)
      << msg;
}

}  // namespace
}  // namespace nn::formats
