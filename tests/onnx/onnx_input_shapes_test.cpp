// Input shapes of ONNX files: read_graph_inputs (names, dims with -1 where free, from a walk that skips the
// weights) and import_model at given shapes (--input-shape; infer's .npy inputs).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>

#include "formats/onnx/common/onnx_graph_inputs.hpp"
#include "formats/onnx/import/onnx_importer.hpp"
#include "nn/core/error.hpp"
#include "onnx/onnx_pb.h"

namespace {
using namespace nn;
using nn::formats::onnx::read_graph_inputs;

void add_input(::onnx::GraphProto& g, const std::string& name, const std::vector<std::string>& dims) {
  auto* shape = g.add_input()->mutable_type()->mutable_tensor_type();
  shape->set_elem_type(1);
  g.mutable_input(g.input_size() - 1)->set_name(name);
  for (const auto& d : dims) {
    auto* dim = shape->mutable_shape()->add_dim();
    if (d.empty() || !std::isdigit(static_cast<unsigned char>(d[0])))
      dim->set_dim_param(d);
    else
      dim->set_dim_value(std::stoll(d));
  }
}

std::string write_model(const ::onnx::ModelProto& m, const std::string& name) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return path;
}

TEST(OnnxGraphInputs, NamesAndFreeDimsWithoutInitializers) {
  ::onnx::ModelProto m;
  m.set_ir_version(3);
  auto* g = m.mutable_graph();
  auto* w = g->add_initializer();  // an initializer also listed as an input (IR < 4 style): not an input
  w->set_name("w");
  w->add_dims(1000);
  w->set_data_type(1);
  w->set_raw_data(std::string(4000, '\1'));
  add_input(*g, "tokens", {"batch", "sequence"});
  add_input(*g, "w", {"1000"});
  add_input(*g, "mask", {"1", ""});
  const std::string path = write_model(m, "nn_graph_inputs_test.onnx");
  const auto inputs = read_graph_inputs(path);
  ASSERT_TRUE(inputs.has_value());
  ASSERT_EQ(inputs->size(), 2u);
  EXPECT_EQ((*inputs)[0].name, "tokens");
  EXPECT_EQ((*inputs)[0].dims, (Shape{-1, -1}));
  EXPECT_EQ((*inputs)[1].name, "mask");
  EXPECT_EQ((*inputs)[1].dims, (Shape{1, -1}));
  EXPECT_TRUE(nn::formats::onnx::has_free_dims(*inputs));
  std::filesystem::remove(path);
}

TEST(OnnxGraphInputs, MalformedOrMissingFilesGiveNothing) {
  ::onnx::ModelProto m;
  add_input(*m.mutable_graph(), "x", {"2"});
  std::string bytes = m.SerializeAsString();
  const std::string path = (std::filesystem::temp_directory_path() / "nn_graph_inputs_cut.onnx").string();
  std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() - 3);  // a length past the end
  EXPECT_FALSE(read_graph_inputs(path).has_value());
  EXPECT_FALSE(read_graph_inputs(path + ".absent").has_value());
  EXPECT_FALSE(read_graph_inputs(std::filesystem::temp_directory_path().string()).has_value());  // a folder
  std::filesystem::remove(path);
}

// x (batch, 3) -> Relu -> y.
std::string relu_model(const std::string& name) {
  ::onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  add_input(*g, "x", {"batch", "3"});
  auto* node = g->add_node();
  node->set_op_type("Relu");
  node->add_input("x");
  node->add_output("y");
  g->add_output()->set_name("y");
  return write_model(m, name);
}

std::string import_error(const std::string& path, const formats::onnx::InputShapes& shapes, ErrorCode* code) {
  try {
    formats::onnx::import_model(path, shapes);
  } catch (const Error& e) {
    *code = e.code();
    return e.what();
  }
  return "no error";
}

TEST(OnnxInputShapes, ImportFixesTheGivenShapes) {
  const std::string path = relu_model("nn_input_shapes_relu.onnx");
  ir::Model free = formats::onnx::import_model(path);
  ir::Model fixed = formats::onnx::import_model(path, {{"x", {5, 3}}});
  auto input_shape = [](const ir::Model& m) {
    for (const auto& v : m.networks.at(0).variables)
      if (v.name == "x") return v.shape;
    return Shape{};
  };
  EXPECT_EQ(input_shape(free), (Shape{-1, 3}));
  EXPECT_EQ(input_shape(fixed), (Shape{5, 3}));
  ErrorCode code{};
  EXPECT_NE(import_error(path, {{"z", {5, 3}}}, &code).find("the graph has no input 'z' (its inputs: 'x')"),
            std::string::npos);
  EXPECT_EQ(code, ErrorCode::kUsage);
  EXPECT_NE(import_error(path, {{"x", {5, 4}}}, &code)
                .find("graph input 'x' of shape (batch, 3) cannot take the shape (5, 4)"),
            std::string::npos);
  EXPECT_NE(import_error(path, {{"x", {5}}}, &code).find("cannot take the shape (5,)"), std::string::npos);
  EXPECT_EQ(code, ErrorCode::kUsage);
  std::filesystem::remove(path);
}

}  // namespace
