// ir::build_network and ir::ParameterStore on hand-made networks (no file formats involved).
#include <gtest/gtest.h>

#include <cmath>

#include "nn/core/error.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::ir {
namespace {

Variable var(const std::string& name, Shape shape, const std::string& type = "Buffer") {
  Variable v;
  v.name = name;
  v.type = type;
  v.shape = std::move(shape);
  return v;
}

Function fn(const std::string& name, const std::string& type, std::vector<std::string> in,
            std::vector<std::string> out, Attrs attrs = {}) {
  Function f;
  f.name = name;
  f.type = type;
  f.inputs = std::move(in);
  f.outputs = std::move(out);
  f.attrs = std::move(attrs);
  f.has_param = !f.attrs.empty();
  return f;
}

Parameter param(const std::string& name, Shape shape, std::vector<float> data) {
  Parameter p;
  p.name = name;
  p.shape = std::move(shape);
  p.data = std::move(data);
  return p;
}

// y = ReLU(2 * x + b), x: (-1, 3), b: (1, 3) broadcast over the batch.
Network scale_bias_relu() {
  Network n;
  n.name = "net";
  n.batch_size = 2;
  n.variables = {var("x", {-1, 3}), var("b", {1, 3}, "Parameter"), var("h", {-1, 3}), var("s", {-1, 3}),
                 var("y", {-1, 3})};
  n.functions = {fn("scale", "MulScalar", {"x"}, {"h"}, {{"val", 2.0}}), fn("add", "Add2", {"h", "b"}, {"s"}),
                 fn("relu", "ReLU", {"s"}, {"y"})};
  return n;
}

void set_data(const VariablePtr& v, const std::vector<float>& values) {
  ASSERT_EQ(v->size(), int64_t(values.size()));
  std::copy(values.begin(), values.end(), v->data()->cast<float>(true));
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(GraphBuilder, BuildsAndRunsWithBatchSubstitution) {
  ParameterStore params;
  params.load({param("b", {1, 3}, {0.5f, -10.0f, 1.0f})});
  BuildOptions options;
  options.batch_size = 4;
  BuiltNetwork net = build_network(scale_bias_relu(), params, options);
  EXPECT_EQ(net.batch_size, 4);
  EXPECT_EQ(net.inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(net.outputs, std::vector<std::string>{"y"});
  EXPECT_EQ(net.get("x")->shape(), (Shape{4, 3}));
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[i] = float(i) - 5.5f;
  set_data(net.get("x"), x);
  net.get("y")->forward();
  std::vector<float> y = net.get("y")->data()->to_vector();
  const float b[3] = {0.5f, -10.0f, 1.0f};
  for (int i = 0; i < 12; ++i) EXPECT_FLOAT_EQ(y[i], std::max(0.0f, 2.0f * x[i] + b[i % 3])) << i;
}

TEST(GraphBuilder, DefaultBatchSizeIsTheNetworks) {
  ParameterStore params;
  params.load({param("b", {1, 3}, {0, 0, 0})});
  BuiltNetwork net = build_network(scale_bias_relu(), params, BuildOptions{});
  EXPECT_EQ(net.get("y")->shape(), (Shape{2, 3}));
}

TEST(GraphBuilder, MissingParameterComesFromItsInitializer) {
  Network n = scale_bias_relu();
  n.find_variable("b")->initializer = Initializer{"Constant", 0.25};
  ParameterStore params;
  BuiltNetwork net = build_network(n, params, BuildOptions{});
  ASSERT_NE(params.find("b"), nullptr);
  EXPECT_EQ(params.find("b")->data()->to_vector(), (std::vector<float>{0.25f, 0.25f, 0.25f}));
  std::vector<Parameter> saved = params.to_ir();
  ASSERT_EQ(saved.size(), 1u);
  EXPECT_EQ(saved[0].name, "b");
  EXPECT_EQ(saved[0].shape, (Shape{1, 3}));
}

TEST(GraphBuilder, TakenParametersEqualLoadedOnesAndLeaveTheListEmpty) {
  std::vector<Parameter> list{param("a", {2}, {1, 2}), param("b", {3}, {3, 4, 5}), param("a", {2}, {6, 7})};
  ParameterStore loaded, taken;
  loaded.load(list);
  taken.take(list);
  EXPECT_TRUE(list.empty());
  ASSERT_EQ(taken.ordered().size(), 2u);  // the later 'a' replaces the earlier, as load does
  for (const auto& [name, var] : loaded.ordered()) {
    const VariablePtr t = taken.find(name);
    ASSERT_TRUE(t) << name;
    ASSERT_EQ(t->shape(), var->shape());
    for (int64_t i = 0; i < var->size(); ++i)
      EXPECT_EQ(t->data()->get<float>()[i], var->data()->get<float>()[i]) << name << " " << i;
  }
  EXPECT_EQ(taken.find("a")->data()->get<float>()[0], 6.f);
}

TEST(GraphBuilder, ParameterShapeMismatchNamesBothShapes) {
  ParameterStore params;
  params.load({param("b", {3}, {1, 2, 3})});
  std::string msg = error_of([&] { build_network(scale_bias_relu(), params, BuildOptions{}); });
  EXPECT_NE(msg.find("network 'net': function 'add' (Add2): parameter 'b' has shape (3,)"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("(1, 3)"), std::string::npos) << msg;
}

TEST(GraphBuilder, UnknownFunctionTypeIsUnsupported) {
  Network n = scale_bias_relu();
  n.functions[2].type = "NoSuchFunction";
  ParameterStore params;
  try {
    build_network(n, params, BuildOptions{});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("network 'net': function 'relu' (NoSuchFunction)"), std::string::npos)
        << e.what();
  }
}

TEST(GraphBuilder, DeclaredOutputShapeIsChecked) {
  Network n = scale_bias_relu();
  n.find_variable("y")->shape = {-1, 4};
  ParameterStore params;
  std::string msg = error_of([&] { build_network(n, params, BuildOptions{}); });
  EXPECT_NE(msg.find("function 'relu' (ReLU): output 'y' is declared with shape (2, 4) but the function "
                     "computes (2, 3)"),
            std::string::npos)
      << msg;
}

TEST(GraphBuilder, ArgumentErrorsCarryTheFunction) {
  Network n = scale_bias_relu();
  n.functions[0].attrs.set("no_such_argument", int64_t(1));
  ParameterStore params;
  std::string msg = error_of([&] { build_network(n, params, BuildOptions{}); });
  EXPECT_NE(msg.find("network 'net': function 'scale' (MulScalar): "), std::string::npos) << msg;
  EXPECT_NE(msg.find("no_such_argument"), std::string::npos) << msg;
}

TEST(GraphBuilder, UseBeforeDefinitionIsAnError) {
  Network n = scale_bias_relu();
  std::swap(n.functions[0], n.functions[1]);
  ParameterStore params;
  std::string msg = error_of([&] { build_network(n, params, BuildOptions{}); });
  EXPECT_NE(msg.find("input 'h' is produced by a later function"), std::string::npos) << msg;
}

TEST(GraphBuilder, UndeclaredVariableIsAnError) {
  Network n = scale_bias_relu();
  n.functions[2].inputs = {"nowhere"};
  ParameterStore params;
  std::string msg = error_of([&] { build_network(n, params, BuildOptions{}); });
  EXPECT_NE(msg.find("input 'nowhere' is not a variable of the network"), std::string::npos) << msg;
}

TEST(GraphBuilder, InferenceTurnsDropoutIntoIdentity) {
  Network n;
  n.name = "drop";
  n.batch_size = 1;
  n.variables = {var("x", {-1, 5}), var("y", {-1, 5})};
  n.functions = {fn("dropout", "Dropout", {"x"}, {"y"}, {{"p", 0.5}})};
  ParameterStore params;
  BuiltNetwork net = build_network(n, params, BuildOptions{});
  set_data(net.get("x"), {1, 2, 3, 4, 5});
  net.get("y")->forward();
  EXPECT_EQ(net.get("y")->data()->to_vector(), (std::vector<float>{1, 2, 3, 4, 5}));
  EXPECT_EQ(net.get("y")->parent()->function().type(), "Identity");
}

TEST(GraphBuilder, ReshapeGetsTheBatchDimension) {
  Network n;
  n.name = "reshape";
  n.batch_size = 3;
  n.variables = {var("x", {-1, 2, 2}), var("y", {-1, 4}), var("z", {-1, 4})};
  // NNC omits the batch dim in Reshape's shape; -1 means the batch size.
  n.functions = {fn("r1", "Reshape", {"x"}, {"y"}, {{"shape", std::vector<int64_t>{4}}}),
                 fn("r2", "Reshape", {"y"}, {"z"}, {{"shape", std::vector<int64_t>{-1, 4}}})};
  ParameterStore params;
  BuiltNetwork net = build_network(n, params, BuildOptions{});
  EXPECT_EQ(net.get("z")->shape(), (Shape{3, 4}));
}

TEST(GraphBuilder, AbsurdDeclaredShapeIsRejected) {
  Network n = scale_bias_relu();
  n.find_variable("x")->shape = {-1, int64_t(1) << 50};
  ParameterStore params;
  std::string msg = error_of([&] { build_network(n, params, BuildOptions{}); });
  EXPECT_NE(msg.find("variable 'x'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("too large"), std::string::npos) << msg;
}

TEST(GraphBuilder, ParameterStoreChecksDataLength) {
  ParameterStore params;
  std::string msg = error_of([&] { params.load({param("w", {2, 2}, {1, 2, 3})}); });
  EXPECT_NE(msg.find("parameter 'w': shape (2, 2) needs 4 values, the file holds 3"), std::string::npos) << msg;
}

TEST(GraphBuilder, AffineReluMlp) {
  if (!OpRegistry::instance().find("Affine")) GTEST_SKIP() << "Affine is not registered yet";
  Network n;
  n.name = "mlp";
  n.batch_size = 1;
  n.variables = {var("x", {-1, 2}), var("fc/W", {2, 3}, "Parameter"), var("fc/b", {3}, "Parameter"),
                 var("h", {-1, 3}), var("y", {-1, 3})};
  n.functions = {fn("fc", "Affine", {"x", "fc/W", "fc/b"}, {"h"}, {{"base_axis", int64_t(1)}}),
                 fn("relu", "ReLU", {"h"}, {"y"})};
  ParameterStore params;
  params.load({param("fc/W", {2, 3}, {1, -1, 0.5f, 2, 1, -3}), param("fc/b", {3}, {0.1f, 0.2f, 0.3f})});
  BuiltNetwork net = build_network(n, params, BuildOptions{});
  set_data(net.get("x"), {1.5f, -0.5f});
  net.get("y")->forward();
  // h = x W + b = (1.5 - 1 + 0.1, -1.5 - 0.5 + 0.2, 0.75 + 1.5 + 0.3)
  std::vector<float> y = net.get("y")->data()->to_vector();
  EXPECT_NEAR(y[0], 0.6, 1e-6);
  EXPECT_NEAR(y[1], 0.0, 1e-6);
  EXPECT_NEAR(y[2], 2.55, 1e-6);
}

}  // namespace
}  // namespace nn::ir
