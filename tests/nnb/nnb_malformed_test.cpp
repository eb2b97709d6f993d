// NNB reader on damaged files: each damage gives one clear error (or a warning), never a crash.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "formats/nnb/nnb_dump.hpp"
#include "formats/nnb/nnb_file.hpp"
#include "formats/nnb/nnb_to_ir.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::nnb::test {

namespace {

// A small valid network: input (1,4) -> ReLU -> output, and one parameter block.
std::string sample() {
  NnbNetwork n;
  n.version = 2;
  n.api_level = 1;
  n.buffers = {4};
  NnbVariable x, y, w;
  x.id = 0, x.shape = {1, 4}, x.data_index = -1;
  y.id = 1, y.shape = {1, 4}, y.data_index = -1;
  w.id = 2, w.shape = {2}, w.data_index = 0, w.data = std::string(8, '\0');
  n.variables = {x, y, w};
  NnbFunction f;
  f.type = 14;
  f.inputs = {0};
  f.outputs = {1};
  f.args = {{"B", 1, 0.0f, {}}};
  n.functions = {f};
  n.inputs = {0};
  n.outputs = {1};
  return serialize_nnb(n);
}

void set_u32(std::string& b, size_t pos, uint32_t v) { std::memcpy(b.data() + pos, &v, 4); }

std::string error_of(const std::string& bytes) {
  try {
    read_nnb(bytes, "'bad.nnb'");
  } catch (const nn::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(NnbMalformed, SampleIsValid) {
  const NnbNetwork n = read_nnb(sample(), "sample");
  ASSERT_EQ(n.functions.size(), 1u);
  EXPECT_EQ(n.functions[0].type, 14);
  ASSERT_EQ(n.functions[0].args.size(), 1u);
  EXPECT_EQ(n.functions[0].args[0].i, 1);
  EXPECT_EQ(n.variables[2].data.size(), 8u);
}

TEST(NnbMalformed, WrongVersion) {
  std::string b = sample();
  set_u32(b, 0, 7);
  EXPECT_NE(error_of(b).find("'bad.nnb': NNB version 7 is not supported"), std::string::npos) << error_of(b);
}

TEST(NnbMalformed, TruncatedHeader) {
  EXPECT_NE(error_of(sample().substr(0, 40)).find("NNB header truncated (40 bytes"), std::string::npos);
  EXPECT_NE(error_of("").find("header truncated"), std::string::npos);
}

TEST(NnbMalformed, TruncatedIndex) {
  std::string b = sample();
  set_u32(b, 48, 1000000);
  EXPECT_NE(error_of(b).find("NNB index table truncated: 1000000 entries"), std::string::npos) << error_of(b);
  EXPECT_NE(error_of(sample().substr(0, 60)).find("index table truncated"), std::string::npos);
}

TEST(NnbMalformed, TruncatedData) {
  const std::string b = sample();
  EXPECT_NE(error_of(b.substr(0, b.size() - 8)).find("NNB data area truncated"), std::string::npos);
}

TEST(NnbMalformed, OffsetOutOfRange) {
  std::string b = sample();
  set_u32(b, 56 + 4, 0x7FFFFFF0);
  EXPECT_NE(error_of(b).find("NNB index entry 1: offset 2147483632 is beyond the data area"), std::string::npos)
      << error_of(b);
}

TEST(NnbMalformed, BlockIndexOutOfRange) {
  std::string b = sample();
  set_u32(b, 20, 999);  // variables.list
  EXPECT_NE(error_of(b).find("variable list: block index 999 is out of range"), std::string::npos) << error_of(b);
}

TEST(NnbMalformed, HugeListSize) {
  std::string b = sample();
  set_u32(b, 16, 0xFFFFFFFF);  // variables.size
  EXPECT_NE(error_of(b).find("variable list: list of 4294967295 entries does not fit"), std::string::npos)
      << error_of(b);
}

TEST(NnbMalformed, GarbageApiLevelIsAWarning) {
  std::string b = sample();
  set_u32(b, 4, 0x06428C7C);
  const NnbNetwork n = read_nnb(b, "x");
  ASSERT_EQ(n.warnings.size(), 1u);
  EXPECT_NE(n.warnings[0].find("api_level 105024636 is not a valid level"), std::string::npos);
}

TEST(NnbMalformed, FutureApiLevel) {
  std::string b = sample();
  set_u32(b, 4, 4000);
  EXPECT_NE(error_of(b).find("NNB api_level 4000 is newer than the newest level nncli knows"), std::string::npos);
}

// Shapes whose element count overflows int64 or would need gigabytes: refused before anything is allocated.
TEST(NnbMalformed, HugeShape) {
  NnbNetwork n = read_nnb(sample(), "sample");
  n.variables[0].shape = {65536, 65536, 65536, 65536, 65536};  // overflows int64
  EXPECT_NE(error_of(serialize_nnb(n)).find("variable 0: its shape has 9223372036854775807 elements, more than"),
            std::string::npos)
      << error_of(serialize_nnb(n));
  n.variables[0].shape = {1, 1 << 29};
  EXPECT_NE(error_of(serialize_nnb(n)).find("variable 0: its shape has 536870912 elements"), std::string::npos);
  n.variables[1].shape = {1, -4};
  n.variables[0].shape = {1, 4};
  EXPECT_NE(error_of(serialize_nnb(n)).find("variable 1: negative dimension in its shape"), std::string::npos);
}

// Inputs the NNB fuzzer (fuzz/fuzz_nnb.cpp) found, in data/fuzz/: each must read, dump and map to an
// ir::Model or fail with nn::Error, never crash. mean_over_empty_axis.nnb: Mean over axes (1, 3) of a
// (1049468610, 0, 4, 3) variable; the reader accepts it (0 elements), building it made the engine's
// reduction plan ask for 8 GB, so the fuzzer only builds networks of bounded size.
TEST(NnbMalformed, FuzzFindingsFailCleanly) {
  size_t cases = 0;
  for (const auto& entry : std::filesystem::directory_iterator(NN_NNB_FUZZ_CASES)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
      const NnbNetwork n = read_nnb(bytes, entry.path().filename().string());
      (void)dump_nnb(n);
      (void)nnb_to_model(n);
    } catch (const nn::Error&) {
    }
    ++cases;
  }
  EXPECT_GE(cases, 1u);
  const NnbNetwork mean = read_nnb_file(std::string(NN_NNB_FUZZ_CASES) + "/mean_over_empty_axis.nnb");
  ASSERT_EQ(mean.variables.size(), 2u);
  EXPECT_EQ(element_count(mean.variables[0].shape), 0);
}

TEST(NnbMalformed, EveryTruncationFailsCleanly) {
  const std::string b = sample();
  for (size_t n = 0; n < b.size(); ++n) EXPECT_NE(error_of(b.substr(0, n)), "") << n;
}

}  // namespace nn::formats::nnb::test
