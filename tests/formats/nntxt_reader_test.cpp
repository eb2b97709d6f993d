// Text-format reading: NNC quirks, attribute filling, and errors with file:line:col.
#include <gtest/gtest.h>

#include "formats/nnp/nnp_reader.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

using test::error_of;
using test::ScratchDir;

const char* kNncStyle = R"(
global_config {
  default_context { backend: "cpu|cuda" array_class: "CudaArray" device_id: "0"
                    compute_backend: "default|cudnn" }
}
network {
  name: "classifier@{\"class_names\": [\"cat\", \"dog\"]}"
  batch_size: 64
  variable {
    type: "Buffer"
    name: "x"
    shape: { dim:-1 dim: 1 dim: 28 dim: 28 }
  }
  variable {
    name: "conv/W"
    type: "Parameter"
    shape: { dim: 4 dim: 1 dim: 3 dim: 3 }
    initializer { type: "NormalConvolutionHeForward" multiplier: 1.0 }
  }
  function {
    name: "Convolution"
    type: "Convolution"
    input: "x"
    input: "conv/W"
    output: "y"
    convolution_param { pad: { dim: 1 dim: 1 } stride: { dim: 1 dim: 1 } dilation: { dim: 1 dim: 1 }
                        group: 1 base_axis: 1 }
  }
  function {
    name: "BN"
    type: "BatchNormalization"
    input: "y"
    output: "z"
    batch_normalization_param { axes: 1 decay_rate: 0.9 eps: 0.0001 batch_stat: True }
  }
}
dataset { name: "Training" uri: "C:\\data\\train.csv" overwrite_cache: True shuffle: False batch_size: 64 }
)";

TEST(NntxtReader, AcceptsNncQuirks) {
  ir::Model m = parse_nntxt(kNncStyle, "nnc.nntxt");
  ASSERT_EQ(m.networks.size(), 1u);
  const auto& net = m.networks[0];
  EXPECT_EQ(net.name, R"(classifier@{"class_names": ["cat", "dog"]})");
  EXPECT_EQ(net.variables[0].shape, (Shape{-1, 1, 28, 28}));
  EXPECT_EQ(net.variables[1].initializer.type, "NormalConvolutionHeForward");
  ASSERT_TRUE(m.default_context);
  EXPECT_EQ(m.default_context->backend, "cpu|cuda");
  EXPECT_EQ(m.datasets[0].uri, "C:\\data\\train.csv");
  EXPECT_TRUE(m.datasets[0].overwrite_cache);
  EXPECT_FALSE(m.datasets[0].shuffle);
}

TEST(NntxtReader, FillsEveryArgumentIncludingZeroValues) {
  ir::Model m = parse_nntxt(kNncStyle, "nnc.nntxt");
  const ir::Function& conv = m.networks[0].functions[0];
  EXPECT_TRUE(conv.has_param);
  EXPECT_EQ(conv.attrs.get_ints("pad", {}), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(conv.attrs.get_int("group", 0), 1);
  // channel_last is absent in the text (proto3 zero) but still present as an argument.
  ASSERT_TRUE(conv.attrs.has("channel_last"));
  EXPECT_EQ(std::get<bool>(*conv.attrs.find("channel_last")), false);
  EXPECT_EQ(conv.attrs.values().size(), 6u);
  const ir::Function& bn = m.networks[0].functions[1];
  EXPECT_TRUE(bn.attrs.get_bool("batch_stat", false));
  EXPECT_NEAR(bn.attrs.get_float("eps", 0), 1e-4, 1e-9);
  EXPECT_EQ(std::get<bool>(*bn.attrs.find("no_scale")), false);
  EXPECT_EQ(bn.attrs.get_ints("axes", {}), (std::vector<int64_t>{1}));
}

TEST(NntxtReader, EmptyParameterMessageStillMarksHasParam) {
  ir::Model m = parse_nntxt(R"(network { name: "n" function { name: "r" type: "Round" round_param {} }
                                          function { name: "s" type: "Sigmoid" } })",
                            "e.nntxt");
  EXPECT_TRUE(m.networks[0].functions[0].has_param);
  EXPECT_TRUE(m.networks[0].functions[0].attrs.empty());
  EXPECT_FALSE(m.networks[0].functions[1].has_param);
}

TEST(NntxtReader, SyntaxErrorReportsFileLineAndColumn) {
  ScratchDir dir;
  test::write_text_file(dir.path("bad.nntxt"), "network {\n  name: \"n\"\n  variable {\n    name \"x\"\n  }\n}\n");
  std::string msg = error_of([&] { load_model({dir.path("bad.nntxt")}); });
  EXPECT_NE(msg.find("bad.nntxt':4:10: "), std::string::npos) << msg;
}

TEST(NntxtReader, UnknownArgumentFieldIsNamedWithLineAndColumn) {
  const std::string text =
      "network {\n  name: \"n\"\n  function {\n    name: \"c\"\n    type: \"Convolution\"\n"
      "    convolution_param {\n      pads { dim: 1 }\n    }\n  }\n}\n";
  std::string msg = error_of([&] { parse_nntxt(text, "typo.nntxt"); });
  EXPECT_NE(msg.find("'typo.nntxt':7:7: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("pads"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ConvolutionParameter"), std::string::npos) << msg;
}

TEST(NntxtReader, UnknownFunctionTypeIsLeftToTheEngine) {
  ir::Model m = parse_nntxt(R"(network { name: "n" function { name: "f" type: "NoSuchFunction" } })", "u.nntxt");
  EXPECT_EQ(m.networks[0].functions[0].type, "NoSuchFunction");
}

TEST(NntxtReader, ParameterMessageOfAnotherFunctionTypeIsAnError) {
  std::string msg = error_of([] {
    parse_nntxt(
        R"(network { name: "n" function { name: "f" type: "Convolution" affine_param { base_axis: 1 } } })",
        "m.nntxt");
  });
  EXPECT_NE(msg.find("network 'n': function 'f' (Convolution): has 'affine_param', which belongs to function type "
                     "Affine"),
            std::string::npos)
      << msg;
}

TEST(NntxtReader, BadVariableShapesAreErrors) {
  std::string huge = error_of([] {
    parse_nntxt(R"(network { name: "n" variable { name: "v" shape { dim: 1 dim: 1000000000000 } } })", "h.nntxt");
  });
  EXPECT_NE(huge.find("variable 'v': shape (1, 1000000000000) is too large"), std::string::npos) << huge;
  std::string negative = error_of(
      [] { parse_nntxt(R"(network { name: "n" variable { name: "v" shape { dim: -1 dim: -3 } } })", "h.nntxt"); });
  EXPECT_NE(negative.find("variable 'v': negative dimension -3"), std::string::npos) << negative;
}

TEST(NntxtReader, MergesFilesInOrder) {
  ScratchDir dir;
  test::write_text_file(dir.path("a.nntxt"), "network { name: \"a\" batch_size: 4 }\nversion: \"1\"\n");
  test::write_text_file(dir.path("b.prototxt"), "network { name: \"b\" }\nversion: \"2\"\n");
  ir::Model m = load_model({dir.path("a.nntxt"), dir.path("b.prototxt")});
  ASSERT_EQ(m.networks.size(), 2u);
  EXPECT_EQ(m.networks[1].name, "b");
  EXPECT_EQ(m.version, "2");  // scalars: the later file wins
}

}  // namespace
}  // namespace nn::formats
