// QuantizedIo: real values to a quantized input's integers as TFLite's reference QUANTIZE kernel rounds them
// (half away from zero, then the zero point, saturated), and back; read from a real .tflite file's inputs.
#include <gtest/gtest.h>

#include <limits>

#include "formats/tflite/tflite_quantized_io.hpp"

namespace nn::formats {
namespace {

QuantizedIo int8(double scale, int64_t zero_point) { return {"int8", -128, 127, scale, zero_point}; }

TEST(TfliteQuantizedIo, RoundsHalfAwayFromZeroThenAddsTheZeroPoint) {
  const QuantizedIo q = int8(0.5, -10);
  EXPECT_EQ(q.quantize(0.25f), -9);   // 0.5 steps -> 1
  EXPECT_EQ(q.quantize(-0.25f), -11);  // -0.5 steps -> -1
  EXPECT_EQ(q.quantize(1.25f), -7);   // 2.5 -> 3, not the even 2
  EXPECT_EQ(q.quantize(1.2f), -8);
  EXPECT_EQ(q.quantize(0.0f), -10);
}

TEST(TfliteQuantizedIo, SaturatesToTheTypeRange) {
  const QuantizedIo q = int8(0.0244803, -128);  // tflite-micro hello_world's input
  EXPECT_EQ(q.quantize(3.1334548f), 0);
  EXPECT_EQ(q.quantize(-1.0f), -128);
  EXPECT_EQ(q.quantize(100.0f), 127);
  EXPECT_EQ(q.quantize(std::numeric_limits<float>::infinity()), 127);
  const QuantizedIo u{"uint8", 0, 255, 1.0 / 127, 128};  // automl_labeler's image input
  EXPECT_EQ(u.quantize(-2.0f), 0);
  EXPECT_EQ(u.quantize(0.25f), 160);  // 31.75 steps -> 32
  EXPECT_EQ(u.quantize(2.0f), 255);
}

TEST(TfliteQuantizedIo, DequantizesAndDescribes) {
  const QuantizedIo q = int8(0.25, 3);
  EXPECT_FLOAT_EQ(q.dequantize(7), 1.0f);
  EXPECT_FLOAT_EQ(q.dequantize(-128), -32.75f);
  EXPECT_EQ(q.describe(), "int8, scale 0.25, zero point 3");
}

TEST(TfliteQuantizedIo, ReadsInputsAndOutputsOfARealFile) {
  const auto io = read_tflite_quantized_io(std::string(NN_TESTDATA_DIR) + "/tflite/simple_add_model_int8.tflite");
  ASSERT_EQ(io.inputs.size(), 2u);
  ASSERT_EQ(io.outputs.size(), 1u);
  ASSERT_TRUE(io.inputs[1] && io.outputs[0]);
  EXPECT_EQ(io.inputs[1]->type, "int8");
  EXPECT_NEAR(io.inputs[1]->scale, 0.0412456, 1e-7);
  EXPECT_EQ(io.inputs[1]->zero_point, -1);
  EXPECT_EQ(io.outputs[0]->zero_point, -3);
  const auto sensiml = read_tflite_quantized_io(std::string(NN_TESTDATA_DIR) + "/tflite/sensiml_model_runner_int8.tflite");
  ASSERT_EQ(sensiml.inputs.size(), 1u);
  EXPECT_FALSE(sensiml.inputs[0]);  // float in and out around the int8 body
  EXPECT_FALSE(sensiml.outputs[0]);
}

}  // namespace
}  // namespace nn::formats
