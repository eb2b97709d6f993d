// ShapeTemplate: integers fitted as multilinear functions of the free dims from imports at its sample points,
// and what it refuses (a size of another form, other functions, a parameter that follows the shapes).
#include <gtest/gtest.h>

#include <string>

#include "formats/nnp/nnp_reader.hpp"
#include "shape_template.hpp"

namespace {
using namespace nn;

// x (b, s, 4) -> Reshape (b * s, 4) -> Slice stop (b * s - 1) -> y; a parameter w; `extra` another function.
ir::Model model_at(int64_t b, int64_t s, int64_t square = 0, float w = 1.f, bool extra = false) {
  const int64_t rows = square ? s * s : b * s;
  const std::string r = std::to_string(rows), b_ = std::to_string(b), s_ = std::to_string(s);
  std::string text = R"(
network {
  name: "net" batch_size: 1
  variable { name: "x" type: "Buffer" shape { dim: )" +
                     b_ + " dim: " + s_ + R"( dim: 4 } }
  variable { name: "w" type: "Parameter" shape { dim: 1 } }
  variable { name: "r" type: "Buffer" shape { dim: )" +
                     r + R"( dim: 4 } }
  variable { name: "y" type: "Buffer" shape { dim: )" +
                     std::to_string(rows - 1) + R"( dim: 4 } }
  function { name: "reshape" type: "Reshape" input: "x" output: "r" reshape_param { shape { dim: )" +
                     r +
                     R"( dim: 4 } } }
  function { name: "slice" type: "Slice" input: "r" output: "y" slice_param { start: 0 start: 0 stop: )" +
                     std::to_string(rows - 1) + R"( stop: 4 step: 1 step: 1 } }
)" + (extra ? R"(  function { name: "relu" type: "ReLU" input: "y" output: "y" })" : "") +
                     R"(
}
parameter { variable_name: "w" shape { dim: 1 } data: )" +
                     std::to_string(w) + R"( }
executor { name: "run" network_name: "net" data_variable { variable_name: "x" data_name: "x" }
           output_variable { variable_name: "y" data_name: "y" } }
)";
  return formats::parse_nntxt(text, "model.nntxt");
}

// The imports at the sample points around (b, s) = (3, 5), each made by `make`.
template <class F>
std::optional<nncli::ShapeTemplate> learnt(F&& make, std::string* why) {
  const auto points = nncli::ShapeTemplate::sample_points({3, 5});
  std::vector<ir::Model> imports;
  for (const auto& p : points) imports.push_back(make(p[0], p[1]));
  return nncli::ShapeTemplate::learn(points, std::move(imports), why);
}

TEST(ShapeTemplate, SamplePointsAreTheCornersThenACheck) {
  EXPECT_EQ(nncli::ShapeTemplate::sample_points({3, 5}),
            (std::vector<std::vector<int64_t>>{{3, 5}, {4, 5}, {3, 6}, {4, 6}, {6, 10}}));
}

TEST(ShapeTemplate, ProductsOfTheFreeDimsFollowThem) {
  std::string why;
  auto t = learnt([](int64_t b, int64_t s) { return model_at(b, s); }, &why);
  ASSERT_TRUE(t) << why;
  const ir::Model& m = t->at({7, 20});
  const ir::Network& n = m.networks.at(0);
  EXPECT_EQ(n.find_variable("x")->shape, (Shape{7, 20, 4}));
  EXPECT_EQ(n.find_variable("r")->shape, (Shape{140, 4}));
  EXPECT_EQ(n.functions[0].attrs.get_ints("shape"), (std::vector<int64_t>{140, 4}));
  EXPECT_EQ(n.functions[1].attrs.get_ints("stop"), (std::vector<int64_t>{139, 4}));
  EXPECT_TRUE(m.parameters.at(0).data.empty());  // the runner takes the weights from the imports' store
  EXPECT_EQ(t->at({2, 2}).networks[0].find_variable("y")->shape, (Shape{3, 4}));
}

TEST(ShapeTemplate, RefusesASizeTheCornersCannotTell) {
  std::string why;  // s * s: multilinear fits on the corners give 11 * s - 30, 30 at s = 10 instead of 100
  EXPECT_FALSE(learnt([](int64_t b, int64_t s) { return model_at(b, s, 1); }, &why));
  EXPECT_NE(why.find("not a multilinear function"), std::string::npos) << why;
}

TEST(ShapeTemplate, RefusesOtherFunctionsOrParametersThatFollowTheShapes) {
  std::string why;
  EXPECT_FALSE(learnt([](int64_t b, int64_t s) { return model_at(b, s, 0, 1.f, b > 3); }, &why));
  EXPECT_NE(why.find("differ in more than sizes"), std::string::npos) << why;
  EXPECT_FALSE(learnt([](int64_t b, int64_t s) { return model_at(b, s, 0, float(s)); }, &why));
  EXPECT_NE(why.find("parameter 'w' follows the input shapes"), std::string::npos) << why;
}

}  // namespace
