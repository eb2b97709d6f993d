// fuse_layer_norm (formats/passes): LayerNorm decomposed as PyTorch and Hugging Face export it becomes one
// LayerNormalization with the same outputs; chains that are not a LayerNorm, or whose parts are read elsewhere,
// stay.
#include <gtest/gtest.h>

#include "formats/passes/inference_passes.hpp"
#include "model_sketch.hpp"
#include "run_executor.hpp"

namespace {
using namespace nn;
using test::Sketch;

// How the decomposition is written: the exporter's choices the pass must recognise.
struct Spelling {
  bool square_by_product = false;  // Mul2(d, d) instead of PowScalar(d, 2)
  bool eps_as_scalar = false;      // AddScalar(eps) instead of Add2 of a constant
  bool reciprocal = false;         // Mul2 by PowScalar(-0.5) instead of Div2 by PowScalar(0.5)
  bool affine = true;              // Mul2 gamma, Add2 beta
  int norm_axes = 1;               // trailing axes normalized
};

// A constant parameter of one value (as the ONNX importer broadcasts constants).
std::string constant(Sketch& s, const std::string& name, const Shape& shape, float value) {
  s.parameter(name, shape);
  for (auto& p : s.model.parameters)
    if (p.name == name) std::fill(p.data.begin(), p.data.end(), value);
  return name;
}

// y = LayerNorm(x + 0.5) spelled as `how` says, over x of shape xs.
Sketch layer_norm_sketch(const Shape& xs, const Spelling& how) {
  Sketch s(xs);
  const int64_t rank = int64_t(xs.size());
  std::vector<int64_t> axes;
  Shape reduced = xs, param(xs.size(), 1);
  for (int64_t a = rank - how.norm_axes; a < rank; ++a) axes.push_back(a), reduced[size_t(a)] = 1;
  for (int64_t a = rank - how.norm_axes; a < rank; ++a) param[size_t(a)] = xs[size_t(a)];
  const Attrs mean_attrs{{"axes", axes}, {"keep_dims", true}};
  const std::string in = s.add("AddScalar", {"x"}, "in", xs, {{"val", 0.5}});
  const std::string mean = s.add("Mean", {in}, "mean", reduced, mean_attrs);
  const std::string d = s.add("Sub2", {in, mean}, "d", xs);
  const std::string sq =
      how.square_by_product ? s.add("Mul2", {d, d}, "sq", xs) : s.add("PowScalar", {d}, "sq", xs, {{"val", 2.0}});
  const std::string var = s.add("Mean", {sq}, "var", reduced, mean_attrs);
  const std::string ve = how.eps_as_scalar
                             ? s.add("AddScalar", {var}, "ve", reduced, {{"val", 1e-5}})
                             : s.add("Add2", {var, constant(s, "eps", Shape(xs.size(), 1), 1e-5f)}, "ve", reduced);
  const std::string root = s.add("PowScalar", {ve}, "root", reduced, {{"val", how.reciprocal ? -0.5 : 0.5}});
  const std::string last = how.affine ? "n" : "y";
  const std::string n = how.reciprocal ? s.add("Mul2", {root, d}, last, xs) : s.add("Div2", {d, root}, last, xs);
  if (how.affine) {
    Shape flat(param.end() - how.norm_axes, param.end());  // PyTorch's weight: the normalized shape
    const std::string g = s.add("Mul2", {n, s.parameter("gamma", flat)}, "g", xs);
    s.add("Add2", {s.parameter("beta", param), g}, "y", xs);
  }
  return s;
}

// Fuses a copy of s: one LayerNormalization and nothing else of the chain left, outputs equal to the original's.
void expect_fused(Sketch& s, size_t functions_left = 2) {
  const std::vector<float> x = s.input();
  const std::vector<float> want = test::run_first_executor(s.model, x, false);
  Sketch fused = s;
  const auto lines = formats::fuse_layer_norm(fused.model);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("fused into LayerNormalization"), std::string::npos) << lines[0];
  EXPECT_EQ(fused.count("LayerNormalization"), 1u);
  EXPECT_EQ(fused.net().functions.size(), functions_left);  // the AddScalar feeding it and the norm
  EXPECT_LE(test::relative_error(test::run_first_executor(fused.model, x, false), want), 1e-5);
  EXPECT_LE(test::relative_error(test::run_first_executor(fused.model, x, true), want), 1e-5);
  for (const char* gone : {"mean", "d", "sq", "var", "ve", "root", "n", "g"})
    EXPECT_EQ(fused.net().find_variable(gone), nullptr) << gone;
}

TEST(FuseLayerNorm, PyTorchSpellingBecomesOneLayerNormalization) {
  Sketch s = layer_norm_sketch({2, 5, 16}, {});
  expect_fused(s);
}

TEST(FuseLayerNorm, OtherSpellingsFuse) {
  Spelling product;
  product.square_by_product = true;
  product.eps_as_scalar = true;
  Spelling reciprocal;
  reciprocal.reciprocal = true;
  Spelling plain;
  plain.affine = false;
  Spelling two_axes;
  two_axes.norm_axes = 2;
  for (const Spelling& how : {product, reciprocal, plain, two_axes}) {
    Sketch s = layer_norm_sketch({3, 4, 6}, how);
    expect_fused(s);
  }
}

TEST(FuseLayerNorm, ChainsThatAreNotALayerNormStay) {
  // The mean over the first axis (statistics across the batch) is not a LayerNorm.
  Sketch s = layer_norm_sketch({3, 4, 6}, {});
  for (auto& f : s.net().functions)
    if (f.type == "Mean") f.attrs.set("axes", std::vector<int64_t>{0});
  // The difference also read by the output: it must stay computed.
  Sketch shared = layer_norm_sketch({3, 4, 6}, {});
  shared.net().functions.back().inputs[0] = "d";
  // A square by another exponent.
  Sketch cube = layer_norm_sketch({3, 4, 6}, {});
  for (auto& f : cube.net().functions)
    if (f.outputs[0] == "sq") f.attrs.set("val", 3.0);
  for (Sketch* sketch : {&s, &shared, &cube}) {
    ir::Model model = sketch->model;
    EXPECT_TRUE(formats::fuse_layer_norm(model).empty());
    EXPECT_EQ(model.networks[0].functions.size(), sketch->model.networks[0].functions.size());
  }
}

TEST(FuseLayerNorm, OptimizeForInferenceFusesAfterScalarExponents) {
  // As imported from ONNX: Pow2 by a constant 2 of x's shape, which scalar_exponents turns into PowScalar first.
  Sketch s = layer_norm_sketch({1, 8, 32}, {});
  for (auto& f : s.net().functions)
    if (f.outputs[0] == "sq") {
      f.type = "Pow2";
      f.attrs = Attrs{};
      f.inputs.push_back(constant(s, "two", {1, 8, 32}, 2.f));
    }
  const std::vector<float> x = s.input();
  const std::vector<float> want = test::run_first_executor(s.model, x, false);
  ir::Model optimized = s.model;
  size_t fused = 0;
  for (const auto& line : formats::optimize_for_inference(optimized))
    fused += line.rfind("fuse_layer_norm:", 0) == 0;
  EXPECT_EQ(fused, 1u);
  EXPECT_LE(test::relative_error(test::run_first_executor(optimized, x, true), want), 1e-5);
}

}  // namespace
