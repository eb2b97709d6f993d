// fuse_convolution_epilogues (formats/passes) on the HardSigmoid and HardSwish chains the ONNX importer writes
// after a convolution (MobileNetV3's): each becomes one FusedConvolution with the same outputs, on the oneDNN
// path (a layer of 1 MFLOP or more) and on the composed one (a smaller layer); chains it must not take stay.
#include <gtest/gtest.h>

#include "formats/passes/inference_passes.hpp"
#include "model_sketch.hpp"
#include "run_executor.hpp"

namespace {
using namespace nn;
using test::Sketch;

// clip(alpha h + beta, 0, 1) on `h` of `shape`, MinimumScalar(1) before MaximumScalar(0) or after it.
std::string clip_chain(Sketch& s, const std::string& h, const Shape& shape, double alpha, double beta,
                       bool min_first, const std::string& out) {
  std::string v = s.add("MulScalar", {h}, out + "/mul", shape, {{"val", alpha}});
  v = s.add("AddScalar", {v}, out + "/add", shape, {{"val", beta}});
  const Attrs min{{"val", 1.0}}, max{{"val", 0.0}};
  v = s.add(min_first ? "MinimumScalar" : "MaximumScalar", {v}, out + "/clip1", shape, min_first ? min : max);
  return s.add(min_first ? "MaximumScalar" : "MinimumScalar", {v}, out, shape, min_first ? max : min);
}

// The optimized model's functions (one line each) after checking its output against the original's.
ir::Model optimize_and_compare(const Sketch& s) {
  const std::vector<float> x = Sketch(s).input();
  const std::vector<float> want = test::run_first_executor(s.model, x, false);
  ir::Model optimized = s.model;
  formats::optimize_for_inference(optimized);
  EXPECT_FALSE(want.empty());
  EXPECT_LE(test::relative_error(test::run_first_executor(optimized, x, true), want), 1e-5);
  return optimized;
}

ir::Function only_function(const ir::Model& m) {
  EXPECT_EQ(m.networks[0].functions.size(), 1u);
  return m.networks[0].functions.at(0);
}

TEST(ConvEpilogueFusion, HardSwishBecomesOneFusedConvolution) {
  for (int64_t size : {16, 5}) {  // 1.2 MFLOP: oneDNN's post-op; 0.1: the composed stages
    const Shape x{1, 16, size, size};
    Sketch s(x);
    const std::string h = s.conv("x", x, 16, 3, "h");
    const std::string gate = clip_chain(s, h, x, 1.0 / 6.0, 0.5, true, "gate");
    s.add("Mul2", {gate, h}, "y", x);
    const ir::Function f = only_function(optimize_and_compare(s));
    EXPECT_EQ(f.type, "FusedConvolution");
    EXPECT_EQ(f.attrs.get_string("nonlinearity", ""), "hard_swish");
  }
}

TEST(ConvEpilogueFusion, HardSigmoidEitherClipOrderWithItsArguments) {
  for (bool min_first : {true, false}) {
    const Shape x{1, 16, 16, 16};
    Sketch s(x);
    clip_chain(s, s.conv("x", x, 16, 3, "h"), x, 0.2, 0.4, min_first, "y");
    const ir::Function f = only_function(optimize_and_compare(s));
    EXPECT_EQ(f.attrs.get_string("nonlinearity", ""), "hard_sigmoid");
    EXPECT_EQ(f.attrs.get_floats("nonlinearity_args", {}), (std::vector<double>{0.2, 0.4}));
  }
}

TEST(ConvEpilogueFusion, ChainsThatAreNotHardSwishStay) {
  const Shape x{1, 16, 16, 16};
  {  // a gate of slope 1/4 multiplied by its input: hard_sigmoid's arguments differ from HardSwish's
    Sketch s(x);
    const std::string h = s.conv("x", x, 16, 3, "h");
    s.add("Mul2", {h, clip_chain(s, h, x, 0.25, 0.5, true, "gate")}, "y", x);
    EXPECT_EQ(optimize_and_compare(s).networks[0].functions.size(), 6u);
  }
  {  // the clip's middle read by another function too
    Sketch s(x);
    const std::string h = s.conv("x", x, 16, 3, "h");
    const std::string gate = clip_chain(s, h, x, 0.2, 0.5, true, "gate");
    s.add("Add2", {gate, "gate/add"}, "y", x);
    EXPECT_EQ(optimize_and_compare(s).networks[0].functions.size(), 6u);
  }
}

}  // namespace
