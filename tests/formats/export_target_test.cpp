// The one export path: executor choice, its network, batch size, the unsupported-function report and label().
#include "formats/passes/export_target.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "formats/nnp/nnp_reader.hpp"
#include "formats_test_util.hpp"
#include "nn/ir/function_label.hpp"

namespace nn::formats {
namespace {

const char* kTwoExecutors = R"(network { name: "n" batch_size: 4
    variable { name: "x" shape { dim: -1 dim: 3 } }
    variable { name: "y" shape { dim: -1 dim: 3 } }
    function { name: "r" type: "ReLU" input: "x" output: "y" }
    function { name: "t" type: "Tanh" input: "y" output: "y" } }
  executor { name: "a" network_name: "n" }
  executor { name: "b" network_name: "missing" })";

struct Failure {
  ErrorCode code = ErrorCode::kInternal;
  std::string what;
};
Failure failure_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  ADD_FAILURE() << "expected an nn::Error";
  return {};
}

TEST(ExportTarget, UnnamedExecutorIsTheOnlyOneOrTheFirst) {
  ir::Model m = parse_nntxt(kTwoExecutors, "t.nntxt");
  EXPECT_EQ(select_executor(m, "", UnnamedExecutor::kFirst).name, "a");
  const Failure several = failure_of([&] { select_executor(m, "", UnnamedExecutor::kOnly); });
  EXPECT_EQ(several.code, ErrorCode::kUnsupported);
  EXPECT_NE(several.what.find("this one has 2; pick one with -E"), std::string::npos) << several.what;
  std::string msg = test::error_of([&] { select_executor(ir::Model{}, "", UnnamedExecutor::kFirst); });
  EXPECT_NE(msg.find("the model has no executor"), std::string::npos) << msg;
}

TEST(ExportTarget, UnknownExecutorAndMissingNetworkAreNamed) {
  ir::Model m = parse_nntxt(kTwoExecutors, "t.nntxt");
  EXPECT_EQ(select_executor(m, "b", UnnamedExecutor::kOnly).name, "b");
  std::string msg = test::error_of([&] { select_executor(m, "c", UnnamedExecutor::kOnly); });
  EXPECT_NE(msg.find("unknown executor 'c' (valid executors: 'a', 'b')"), std::string::npos) << msg;
  ExportTargetOptions o;
  o.executor = "b";
  msg = test::error_of([&] { export_target(m, o); });
  EXPECT_NE(msg.find("executor 'b' names network 'missing', which the model does not define"), std::string::npos)
      << msg;
}

TEST(ExportTarget, BatchSizeIsSetOnACopy) {
  ir::Model m = parse_nntxt(kTwoExecutors, "t.nntxt");
  ExportTargetOptions o;
  o.executor = "a";
  o.batch_size = 2;
  ExportTarget t = export_target(m, o);
  EXPECT_EQ(t.network.variables[0].shape, (Shape{2, 3}));
  EXPECT_EQ(t.source->variables[0].shape, (Shape{-1, 3}));
  o.batch_size = 0;
  EXPECT_EQ(export_target(m, o).network.variables[0].shape, (Shape{4, 3}));
}

TEST(ExportTarget, EveryUnsupportedFunctionInOneLine) {
  ir::Model m = parse_nntxt(kTwoExecutors, "t.nntxt");
  int calls = 0;
  const Failure all = failure_of([&] {
    convert_each_function(m.networks[0], "XYZ", [&](const ir::Function& f) {
      ++calls;
      NN_CHECK(false) << "no rule for " << f.type;
    });
  });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(all.code, ErrorCode::kUnsupported);
  EXPECT_NE(
      all.what.find("network 'n': 2 function(s) cannot be converted to XYZ: function 'r' (ReLU): no rule for "
                    "ReLU; function 't' (Tanh): no rule for Tanh"),
      std::string::npos)
      << all.what;
  convert_each_function(m.networks[0], "XYZ", [](const ir::Function&) {});  // all convert: no error
}

TEST(FunctionLabel, NameAndTypeOrPosition) {
  ir::Function f;
  f.name = "fc1";
  f.type = "Affine";
  EXPECT_EQ(ir::label(f), "function 'fc1' (Affine)");
  EXPECT_EQ(ir::label(f, 3), "function 'fc1' (Affine)");
  f.name.clear();
  EXPECT_EQ(ir::label(f, 3), "function #3 (Affine)");
}

}  // namespace
}  // namespace nn::formats
