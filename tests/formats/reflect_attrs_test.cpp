// Reflection over the parameter oneof: type <-> field mapping, argument lists, Attrs <-> message.
#include "formats/nnp/reflect_attrs.hpp"

#include <gtest/gtest.h>

#include "formats_test_util.hpp"
#include "nnabla.pb.h"

namespace nn::formats::nnp {
namespace {

using test::error_of;

TEST(ReflectAttrs, IrregularFunctionNamesMapToTheirFields) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Affine", "affine_param"},
      {"BatchNormalization", "batch_normalization_param"},
      {"ONNXNonMaxSuppression", "onnx_non_max_suppression_param"},
      {"INQAffine", "inq_affine_param"},
      {"NmsDetection2d", "nms_detection2d_param"},
      {"ReLU", "relu_param"},
      {"CELU", "celu_param"},
      {"SELU", "selu_param"},
      {"PReLU", "prelu_param"},
      {"KLMultinomial", "kl_multinomial_param"},
      {"SoftPlus", "softplus_param"},
      {"CumSum", "cumsum_param"},
      {"SearchSorted", "searchsorted_param"},
      {"RSubScalar", "r_sub_scalar_param"},
      {"ONNXResize", "onnx_resize_param"},
      {"STFT", "stft_param"},
      {"Einsum", "einsum_param"},
  };
  for (const auto& [type, field] : cases) {
    const auto* f = function_param_field(type);
    ASSERT_NE(f, nullptr) << type;
    EXPECT_EQ(f->name(), field);
    EXPECT_EQ(function_type_of_param_field(f), type);
  }
  EXPECT_EQ(function_param_field("Sigmoid"), nullptr);
  EXPECT_EQ(function_param_field("NoSuchFunction"), nullptr);
}

TEST(ReflectAttrs, FieldNumbersFollowTheCatalogIndex) {
  EXPECT_EQ(function_param_field("Affine")->number(), 1001);
  EXPECT_EQ(function_param_field("Convolution")->number(), 1005);
  EXPECT_EQ(function_param_field("BatchNormalization")->number(), 1042);
  EXPECT_EQ(function_param_field("Reshape")->number(), 1146);
  EXPECT_EQ(function_param_field("Einsum")->number(), 1228);
  EXPECT_EQ(function_types_with_parameters().size(), 156u);
}

TEST(ReflectAttrs, ArgumentsInDeclarationOrderWithTypes) {
  auto args = function_arguments("Convolution");
  ASSERT_EQ(args.size(), 6u);
  EXPECT_EQ(args[0].name, "base_axis");
  EXPECT_EQ(args[0].type, AttrType::kInt);
  EXPECT_EQ(args[1].type, AttrType::kShape);
  EXPECT_EQ(args[5].type, AttrType::kBool);
  EXPECT_EQ(function_arguments("Pad")[0].type, AttrType::kInts);
  EXPECT_EQ(function_arguments("ELU")[0].type, AttrType::kDouble);
  EXPECT_EQ(function_arguments("LeakyReLU")[0].type, AttrType::kFloat);
  EXPECT_EQ(function_arguments("RoiAlign")[1].type, AttrType::kFloats);
  EXPECT_EQ(function_arguments("SyncBatchNormalization")[0].type, AttrType::kCommunicator);
  EXPECT_EQ(function_arguments("Pad")[1].type, AttrType::kString);
}

TEST(ReflectAttrs, AttrsToMessageAndBack) {
  nnabla::ConvolutionParameter msg;
  Attrs in{{"base_axis", int64_t(1)}, {"pad", std::vector<int64_t>{2, 2}}, {"channel_last", true}};
  attrs_to_message(in, &msg, "function 'c' (Convolution)");
  EXPECT_EQ(msg.pad().dim_size(), 2);
  EXPECT_TRUE(msg.channel_last());
  Attrs out = message_to_attrs(msg);
  EXPECT_EQ(out.get_ints("pad", {}), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(out.get_ints("stride", {9}), std::vector<int64_t>{});  // empty Shape, still present
  EXPECT_EQ(out.values().size(), 6u);
}

TEST(ReflectAttrs, UnknownOrMistypedArgumentsAreNamed) {
  nnabla::ConvolutionParameter msg;
  std::string unknown = error_of([&] {
    attrs_to_message(Attrs{{"pads", int64_t(1)}}, &msg, "function 'c' (Conv)");
  });
  EXPECT_NE(unknown.find("function 'c' (Conv): unknown argument 'pads'"), std::string::npos) << unknown;
  std::string wrong = error_of([&] { attrs_to_message(Attrs{{"group", std::string("x")}}, &msg, "f"); });
  EXPECT_NE(wrong.find("argument 'group' should be int64"), std::string::npos) << wrong;
}

}  // namespace
}  // namespace nn::formats::nnp
