// fold_transposes (formats/passes): NHWC graphs with the Transposes tf2onnx writes around each layer keep only
// their input and output Transposes and give the original's outputs; graphs it cannot improve stay as they are.
// scalar_exponents: Pow2 by a constant of one value becomes PowScalar, with the same outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "formats/passes/inference_passes.hpp"
#include "model_sketch.hpp"
#include "run_executor.hpp"

namespace {
using namespace nn;

using test::kToNchw;
using test::kToNhwc;
using test::Sketch;

// Runs the pass on a copy: its Transposes left, and the outputs of both (plain kernels and executor path).
size_t fold_and_compare(Sketch& s, double tol = 1e-6) {
  const std::vector<float> x = s.input();
  const std::vector<float> want = test::run_first_executor(s.model, x, false);
  Sketch folded = s;
  const auto lines = formats::fold_transposes(folded.model);
  EXPECT_EQ(lines.size(), 1u);
  EXPECT_FALSE(want.empty());
  EXPECT_LE(test::relative_error(test::run_first_executor(folded.model, x, false), want), tol);
  ir::Model optimized = folded.model;
  formats::optimize_for_inference(optimized);
  EXPECT_LE(test::relative_error(test::run_first_executor(optimized, x, true), want), tol);
  return folded.count("Transpose");
}

TEST(FoldTransposes, NhwcConvolutionStackKeepsOnlyInputAndOutput) {
  Sketch s({1, 6, 5, 3});
  std::string h = s.nhwc_conv("x", {1, 6, 5, 3}, 4, 3, "c1");
  h = s.add("ReLU", {h}, "r1", {1, 6, 5, 4});
  h = s.nhwc_conv(h, {1, 6, 5, 4}, 5, 3, "c2");
  h = s.add("ReLU", {h}, "r2", {1, 6, 5, 5});
  s.nhwc_conv(h, {1, 6, 5, 5}, 2, 1, "y");
  EXPECT_EQ(s.count("Transpose"), 6u);
  EXPECT_EQ(fold_and_compare(s), 2u);  // x's to NCHW and y's to NHWC
}

TEST(FoldTransposes, ChannelConcatenationOnNhwcAxisThree) {
  Sketch s({1, 7, 7, 3});
  const std::string sq = s.add("ReLU", {s.nhwc_conv("x", {1, 7, 7, 3}, 4, 1, "sq")}, "sqr", {1, 7, 7, 4});
  const std::string e1 = s.add("ReLU", {s.nhwc_conv(sq, {1, 7, 7, 4}, 3, 1, "e1")}, "e1r", {1, 7, 7, 3});
  const std::string e3 = s.add("ReLU", {s.nhwc_conv(sq, {1, 7, 7, 4}, 5, 3, "e3")}, "e3r", {1, 7, 7, 5});
  const std::string cat = s.add("Concatenate", {e1, e3}, "cat", {1, 7, 7, 8}, {{"axis", int64_t(3)}});
  const std::string p = s.transpose(cat, kToNchw, "p_in", {1, 8, 7, 7});
  const Attrs pool{{"kernel", std::vector<int64_t>{3, 3}}, {"stride", std::vector<int64_t>{2, 2}}};
  const std::string m = s.add("MaxPooling", {p}, "pool", {1, 8, 3, 3}, pool);
  s.transpose(m, kToNhwc, "y", {1, 3, 3, 8});
  EXPECT_EQ(fold_and_compare(s), 2u);
}

TEST(FoldTransposes, AddOfTwoBranchesAndABroadcastParameter) {
  Sketch s({1, 5, 6, 4});
  const std::string a = s.nhwc_conv("x", {1, 5, 6, 4}, 4, 3, "a");
  const std::string b = s.nhwc_conv("x", {1, 5, 6, 4}, 4, 1, "b");
  const std::string sum = s.add("Add2", {a, b}, "sum", {1, 5, 6, 4});
  const std::string bias = s.parameter("bias", {1, 1, 1, 4});
  const std::string biased = s.add("Mul2", {bias, sum}, "biased", {1, 5, 6, 4});
  const std::string r = s.add("ReLU", {biased}, "r", {1, 5, 6, 4});
  s.nhwc_conv(r, {1, 5, 6, 4}, 3, 3, "y");
  EXPECT_EQ(fold_and_compare(s), 2u);
}

TEST(FoldTransposes, ChannelPadInAResidualAsTfLiteWritesIt) {
  // BlazeFace's blocks: the shortcut's channels padded in NHWC (Pad of the last axis), added to a convolution.
  Sketch s({1, 5, 5, 3});
  const std::string r = s.add("ReLU", {s.nhwc_conv("x", {1, 5, 5, 3}, 4, 3, "c1")}, "r", {1, 5, 5, 4});
  const std::string pad =
      s.add("Pad", {r}, "pad", {1, 5, 6, 7},
            {{"pad_width", std::vector<int64_t>{0, 1, 1, 2}}, {"mode", std::string("reflect")}});
  const std::string c2 = s.nhwc_conv(pad, {1, 5, 6, 7}, 7, 3, "c2");
  s.add("Add2", {c2, pad}, "y", {1, 5, 6, 7});
  EXPECT_EQ(fold_and_compare(s), 2u);
}

TEST(FoldTransposes, GlobalAveragePoolingAndReshapeHead) {
  Sketch s({1, 6, 6, 3});
  const std::string h = s.add("ReLU", {s.nhwc_conv("x", {1, 6, 6, 3}, 8, 3, "c")}, "r", {1, 6, 6, 8});
  const std::string t = s.transpose(h, kToNchw, "g_in", {1, 8, 6, 6});
  const std::string g = s.add("GlobalAveragePooling", {t}, "gap", {1, 8, 1, 1});
  s.add("Reshape", {g}, "y", {1, 8}, {{"shape", std::vector<int64_t>{1, 8}}});
  EXPECT_EQ(fold_and_compare(s), 1u);  // only x's
}

TEST(FoldTransposes, ReduceMeanHeadAndSoftmax) {
  Sketch s({1, 4, 4, 3});
  const std::string h = s.add("ReLU", {s.nhwc_conv("x", {1, 4, 4, 3}, 6, 1, "c")}, "r", {1, 4, 4, 6});
  const std::string m = s.add("Mean", {h}, "mean", {1, 6}, {{"axes", std::vector<int64_t>{1, 2}}});
  s.add("Softmax", {m}, "y", {1, 6}, {{"axis", int64_t(1)}});
  EXPECT_EQ(fold_and_compare(s), 1u);
}

TEST(FoldTransposes, TransposedParameterFolds) {
  Sketch s({1, 3, 4, 2});
  const std::string w = s.parameter("w", {1, 2, 3, 4});
  const std::string wt = s.transpose(w, kToNhwc, "wt", {1, 3, 4, 2});
  s.add("Add2", {"x", wt}, "y", {1, 3, 4, 2});
  EXPECT_EQ(fold_and_compare(s), 0u);
}

TEST(FoldTransposes, LeavesGraphsItCannotImprove) {
  Sketch s({1, 4, 4, 3});
  const std::string t = s.transpose("x", kToNchw, "t", {1, 3, 4, 4});
  const std::string r = s.add("ReLU", {t}, "r", {1, 3, 4, 4});
  s.add("Reshape", {r}, "y", {1, 48}, {{"shape", std::vector<int64_t>{1, 48}}});
  // A Transpose read by two functions, one of which cannot move.
  Sketch two({1, 4, 4, 3});
  const std::string t2 = two.transpose("x", kToNchw, "t", {1, 3, 4, 4});
  const std::string a = two.add("ReLU", {t2}, "a", {1, 3, 4, 4});
  two.add("Add2", {a, t2}, "y", {1, 3, 4, 4});
  for (Sketch* sketch : {&s, &two}) {
    ir::Model model = sketch->model;
    EXPECT_TRUE(formats::fold_transposes(model).empty());
    ASSERT_EQ(model.networks[0].functions.size(), sketch->model.networks[0].functions.size());
    for (size_t i = 0; i < model.networks[0].functions.size(); ++i) {
      EXPECT_EQ(model.networks[0].functions[i].type, sketch->model.networks[0].functions[i].type);
      EXPECT_EQ(model.networks[0].functions[i].inputs, sketch->model.networks[0].functions[i].inputs);
    }
    EXPECT_EQ(model.networks[0].variables.size(), sketch->model.networks[0].variables.size());
    EXPECT_EQ(model.parameters.size(), sketch->model.parameters.size());
  }
}

TEST(ScalarExponents, ConstantExponentBecomesPowScalar) {
  Sketch s({2, 3, 5});
  const std::string two = s.parameter("two", {2, 3, 5}), mixed = s.parameter("mixed", {2, 3, 5});
  for (auto& p : s.model.parameters)
    if (p.name == "two") std::fill(p.data.begin(), p.data.end(), 2.f);
  const std::string sq = s.add("Pow2", {"x", two}, "sq", {2, 3, 5});
  const std::string m = s.add("Pow2", {s.add("Abs", {sq}, "abs", {2, 3, 5}), mixed}, "m", {2, 3, 5});
  s.add("Add2", {sq, m}, "y", {2, 3, 5});
  const std::vector<float> x = s.input();
  const std::vector<float> want = test::run_first_executor(s.model, x, false);
  Sketch changed = s;
  EXPECT_EQ(formats::scalar_exponents(changed.model).size(), 1u);  // the mixed exponent stays
  EXPECT_EQ(changed.count("PowScalar"), 1u);
  EXPECT_EQ(changed.count("Pow2"), 1u);
  EXPECT_EQ(test::relative_error(test::run_first_executor(changed.model, x, false), want), 0.0);
}

}  // namespace
