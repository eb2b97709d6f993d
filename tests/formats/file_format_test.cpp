// Format detection: extension first, then magic bytes.
#include "formats/common/file_format.hpp"

#include <gtest/gtest.h>

#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

using test::ScratchDir;

TEST(FileFormat, ByExtensionCaseInsensitive) {
  EXPECT_EQ(format_from_extension("a/b/model.NNP"), FileFormat::kNnp);
  EXPECT_EQ(format_from_extension("net.nntxt"), FileFormat::kNntxt);
  EXPECT_EQ(format_from_extension("net.prototxt"), FileFormat::kNntxt);
  EXPECT_EQ(format_from_extension("parameter.protobuf"), FileFormat::kProtobuf);
  EXPECT_EQ(format_from_extension("p.h5"), FileFormat::kH5);
  EXPECT_EQ(format_from_extension("m.nnb"), FileFormat::kNnb);
  EXPECT_EQ(format_from_extension("m.onnx"), FileFormat::kOnnx);
  EXPECT_EQ(format_from_extension("dir.v1/noext"), FileFormat::kUnknown);
  EXPECT_EQ(file_extension("x/Optimizer_Adam_optimizer.h5.optimizer"), "optimizer");
}

TEST(FileFormat, ByMagic) {
  EXPECT_EQ(format_from_magic(std::string("PK\x03\x04rest", 8), 100), FileFormat::kNnp);
  EXPECT_EQ(format_from_magic(std::string("\x89HDF\r\n\x1a\n....", 12), 100), FileFormat::kH5);
  EXPECT_EQ(format_from_magic("network {\n  name: \"x\"\n}", 22), FileFormat::kNntxt);
  EXPECT_EQ(format_from_magic("# comment\nnetwork {}", 20), FileFormat::kNntxt);
  EXPECT_EQ(format_from_magic(std::string("\xc2\x0c\xde\x0c", 4), 4), FileFormat::kProtobuf);
  EXPECT_EQ(format_from_magic(std::string("\x01\x02\x03", 3), 3), FileFormat::kUnknown);
  // NNB: version 2, the header's block count and data size add up to the file size.
  std::string nnb(56, '\0');
  nnb[0] = 2;
  nnb[48] = 1;  // one block
  nnb[52] = 8;  // 8 data bytes
  EXPECT_EQ(format_from_magic(nnb, 56 + 4 + 8), FileFormat::kNnb);
  EXPECT_EQ(format_from_magic(nnb, 1000), FileFormat::kUnknown);
}

TEST(FileFormat, DetectFallsBackToMagicForUnknownExtensions) {
  ScratchDir dir;
  test::write_text_file(dir.path("model.bin"), "network {\n}\n");
  test::write_text_file(dir.path("archive.dat"), std::string("PK\x03\x04....", 8));
  EXPECT_EQ(detect_format(dir.path("model.bin")), FileFormat::kNntxt);
  EXPECT_EQ(detect_format(dir.path("archive.dat")), FileFormat::kNnp);
  EXPECT_EQ(detect_format(dir.dir().string()), FileFormat::kDirectory);
  EXPECT_EQ(detect_format(dir.path("missing.bin")), FileFormat::kUnknown);
  EXPECT_STREQ(format_name(FileFormat::kH5), "H5");
}

}  // namespace
}  // namespace nn::formats
