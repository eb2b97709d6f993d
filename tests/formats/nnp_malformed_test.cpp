// Malformed inputs for every reader: each must be an nn::Error (kInvalid) naming the file and the problem.
#include <gtest/gtest.h>
#include <zip.h>

#include <filesystem>

#include "formats/common/atomic_file.hpp"
#include "formats/common/hdf5_file.hpp"
#include "formats/common/zip_archive.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "formats/nnp/parameter_h5.hpp"
#include "formats_test_util.hpp"
#include "nn/core/log.hpp"
#include "nnabla.pb.h"

namespace nn::formats {
namespace {

using test::error_of;
using test::ScratchDir;

const std::string kNetwork = "network {\n  name: \"n\"\n}\n";

std::string parameter_protobuf(const std::vector<int64_t>& shape, int values) {
  nnabla::NNablaProtoBuf proto;
  auto* p = proto.add_parameter();
  p->set_variable_name("w");
  for (auto d : shape) p->mutable_shape()->add_dim(d);
  for (int i = 0; i < values; ++i) p->add_data(float(i));
  return proto.SerializeAsString();
}

void expect_contains(const std::string& message, const std::vector<std::string>& parts) {
  for (const auto& part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << "missing '" << part << "' in: " << message;
}

TEST(MalformedNnp, TruncatedArchive) {
  ScratchDir dir;
  std::string bytes = build_zip({{"network.nntxt", kNetwork + std::string(4000, '\n')}});
  write_file_atomic(dir.path("cut.nnp"), bytes.substr(0, bytes.size() - 30));
  expect_contains(error_of([&] { load_model({dir.path("cut.nnp")}); }), {"cut.nnp'", "not a valid zip archive"});
}

TEST(MalformedNnp, NotAZipAtAll) {
  ScratchDir dir;
  write_file_atomic(dir.path("text.nnp"), "network { }");
  expect_contains(error_of([&] { load_model({dir.path("text.nnp")}); }), {"text.nnp'", "not a valid zip archive"});
}

TEST(MalformedNnp, MemberPathsThatEscape) {
  ScratchDir dir;
  std::string base = build_zip({{"network.nntxt", kNetwork}, {"aa/x", "1"}, {"aetc/x", "2"}});
  auto patched = [&](const std::string& from, const std::string& to) {
    std::string b = base;
    for (size_t pos = b.find(from); pos != std::string::npos; pos = b.find(from, pos + 1))
      b.replace(pos, from.size(), to);
    return b;
  };
  write_file_atomic(dir.path("up.nnp"), patched("aa/x", "../x"));
  expect_contains(error_of([&] { load_model({dir.path("up.nnp")}); }),
                  {"up.nnp'", "member '../x' has a '..' path component"});
  write_file_atomic(dir.path("abs.nnp"), patched("aetc/x", "/etc/x"));
  expect_contains(error_of([&] { load_model({dir.path("abs.nnp")}); }),
                  {"abs.nnp'", "member '/etc/x' has an absolute path"});
}

TEST(MalformedNnp, MissingNetworkMember) {
  ScratchDir dir;
  write_zip(dir.path("params_only.nnp"),
            {{"nnp_version.txt", "0.1\n"}, {"parameter.protobuf", parameter_protobuf({2}, 2)}});
  expect_contains(error_of([&] { load_model({dir.path("params_only.nnp")}); }),
                  {"params_only.nnp'", "no network definition"});
  // As a parameter source the same archive is fine.
  ir::Model m;
  load_parameters_into(m, dir.path("params_only.nnp"));
  EXPECT_EQ(m.parameters.size(), 1u);
}

TEST(MalformedNnp, SyntaxErrorInsideArchiveNamesArchiveMemberLineAndColumn) {
  ScratchDir dir;
  write_zip(dir.path("m.nnp"), {{"network.nntxt", "network {\n  name: \"n\"\n  batch_size: x\n}\n"}});
  expect_contains(error_of([&] { load_model({dir.path("m.nnp")}); }), {"m.nnp': 'network.nntxt':3:15: "});
}

TEST(MalformedNnp, ParameterShapeDoesNotMatchData) {
  ScratchDir dir;
  write_zip(dir.path("m.nnp"),
            {{"network.nntxt", kNetwork}, {"parameter.protobuf", parameter_protobuf({2, 3}, 5)}});
  expect_contains(error_of([&] { load_model({dir.path("m.nnp")}); }),
                  {"m.nnp': 'parameter.protobuf': parameter 'w': shape (2, 3) needs 6 values but the file has 5"});
  test::write_text_file(dir.path("p.nntxt"),
                        "parameter { variable_name: \"w\" shape { dim: 3 } data: 1 data: 2 }\n");
  expect_contains(error_of([&] { load_model({dir.path("p.nntxt")}); }),
                  {"p.nntxt': parameter 'w': shape (3,) needs 3 values but the file has 2"});
}

TEST(MalformedNnp, AbsurdOrNegativeParameterDims) {
  ScratchDir dir;
  write_file_atomic(dir.path("huge.protobuf"), parameter_protobuf({1000000000000}, 1));
  expect_contains(error_of([&] { load_model({dir.path("huge.protobuf")}); }),
                  {"huge.protobuf': parameter 'w': shape (1000000000000,) needs 1000000000000 values"});
  write_file_atomic(dir.path("neg.protobuf"), parameter_protobuf({2, -2}, 4));
  expect_contains(error_of([&] { load_model({dir.path("neg.protobuf")}); }),
                  {"neg.protobuf': parameter 'w': negative dimension -2"});
  write_file_atomic(dir.path("overflow.protobuf"), parameter_protobuf({1 << 30, 1 << 30, 1 << 30}, 1));
  expect_contains(error_of([&] { load_model({dir.path("overflow.protobuf")}); }),
                  {"overflow.protobuf': parameter 'w'", "too large"});
}

TEST(MalformedNnp, AbsurdVariableDimInArchive) {
  ScratchDir dir;
  write_zip(dir.path("m.nnp"),
            {{"network.nntxt",
              "network { name: \"n\" variable { name: \"x\" shape { dim: -1 dim: 1000000000000 } } }"}});
  expect_contains(error_of([&] { load_model({dir.path("m.nnp")}); }),
                  {"m.nnp': 'network.nntxt': network 'n': variable 'x': shape (-1, 1000000000000) is too large"});
}

TEST(MalformedNnp, CorruptBinaryProtobuf) {
  ScratchDir dir;
  write_zip(dir.path("m.nnp"),
            {{"network.nntxt", kNetwork}, {"parameter.protobuf", "\xc2\x0c\xff\xff\xff\x0f garbage"}});
  // A parameter message claiming 32 MiB in an 8-byte member: refused before protobuf reserves memory for it.
  expect_contains(error_of([&] { load_model({dir.path("m.nnp")}); }),
                  {"m.nnp': 'parameter.protobuf': field 'parameter' of NNablaProtoBuf", "claims 33554431 bytes",
                   "only 8 are left"});
  // Lengths that fit, with a wire type that does not exist: the parser's refusal.
  write_zip(dir.path("bad.nnp"), {{"network.nntxt", kNetwork}, {"parameter.protobuf", "\x0f\x01"}});
  expect_contains(error_of([&] { load_model({dir.path("bad.nnp")}); }),
                  {"bad.nnp': 'parameter.protobuf': not a valid binary NNablaProtoBuf"});
}

TEST(MalformedNnp, CorruptH5Member) {
  ScratchDir dir;
  std::string h5 = nnp::h5_parameters_image({{"w", {2}, {1, 2}, true}});
  write_zip(dir.path("m.nnp"), {{"network.nntxt", kNetwork}, {"parameter.h5", h5.substr(0, 700)}});
  expect_contains(error_of([&] { load_model({dir.path("m.nnp")}); }), {"m.nnp': 'parameter.h5'"});
}

TEST(MalformedNnp, H5DatasetClaimingMoreThanItStores) {
  std::string image;
  {
    h5::QuietErrors quiet;
    h5::Handle file = h5::create_memory_file();
    hsize_t dims[2] = {hsize_t(1) << 20, hsize_t(1) << 20};
    hsize_t chunk[2] = {64, 64};
    h5::Handle space(H5Screate_simple(2, dims, nullptr));
    h5::Handle dcpl(H5Pcreate(H5P_DATASET_CREATE));
    H5Pset_chunk(dcpl.get(), 2, chunk);
    h5::Handle dset(
        H5Dcreate2(file.get(), "w", H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT));
    ASSERT_TRUE(dset.valid());
    dset.reset();
    image = h5::image(file.get());
  }
  expect_contains(error_of([&] { nnp::read_h5_parameters(image, "bomb.h5"); }),
                  {"'bomb.h5': parameter 'w': 1099511627776 elements claimed but only 0 bytes stored"});
}

// A network text that inflates beyond the network-text limit is refused from its declared size, before
// any of it is inflated (a 1 MB archive of 1 GiB of spaces).
TEST(MalformedNnp, NetworkTextBombIsRefusedBeforeInflating) {
  ScratchDir dir;
  zip_error_t error;
  zip_error_init(&error);
  int code = 0;
  struct zip* archive = zip_open(dir.path("bomb.nnp").c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  ASSERT_NE(archive, nullptr);
  // A zip source that yields 300 MiB of spaces without holding them: libzip deflates it.
  const std::string spaces(size_t(300) << 20, ' ');
  zip_source_t* src = zip_source_buffer(archive, spaces.data(), spaces.size(), 0);
  ASSERT_GE(zip_file_add(archive, "network.nntxt", src, ZIP_FL_ENC_UTF_8), 0);
  ASSERT_EQ(zip_close(archive), 0);
  EXPECT_LT(std::filesystem::file_size(dir.path("bomb.nnp")), uint64_t(2) << 20);
  expect_contains(
      error_of([&] { load_model({dir.path("bomb.nnp")}); }),
      {"bomb.nnp': member 'network.nntxt': declared size 314572800 bytes exceeds the limit of 268435456"});
}

// A parameter whose size contradicts the network is refused before its (compressed) data is inflated.
TEST(MalformedNnp, ParameterContradictingTheNetworkIsRefusedBeforeReading) {
  ScratchDir dir;
  const std::string net =
      "network {\n  name: \"n\"\n  variable { name: \"w\" type: \"Parameter\" shape { dim: 1 } }\n}\n";
  std::string h5 = nnp::h5_parameters_image({{"w", {305}, std::vector<float>(305, 1.f), true}});
  write_zip(dir.path("m.nnp"), {{"network.nntxt", net}, {"parameter.h5", h5}});
  expect_contains(
      error_of([&] { load_model({dir.path("m.nnp")}); }),
      {"m.nnp': 'parameter.h5': parameter 'w': shape (305,) contradicts network 'n', which declares 1 values"});
  // The same contradiction from a protobuf parameter (data already in memory) is refused after merging.
  write_zip(dir.path("p.nnp"), {{"network.nntxt", net}, {"parameter.protobuf", parameter_protobuf({305}, 305)}});
  expect_contains(error_of([&] { load_model({dir.path("p.nnp")}); }),
                  {"p.nnp': network 'n': parameter 'w' holds 305 values (305,) but the network declares (1,)"});
}

TEST(MalformedNnp, VariableWithTwoProducersBlamesTheSecond) {
  ScratchDir dir;
  const std::string net = R"(network {
  name: "n"
  variable { name: "x" type: "Buffer" shape { dim: -1 dim: 2 } }
  variable { name: "y" type: "Buffer" shape { dim: -1 dim: 2 } }
  function { name: "first" type: "ReLU" input: "x" output: "y" }
  function { name: "second" type: "Tanh" input: "x" output: "y" }
}
)";
  write_file_atomic(dir.path("two.nntxt"), net);
  expect_contains(
      error_of([&] { load_model({dir.path("two.nntxt")}); }),
      {"network 'n': function 'second' (Tanh): output 'y' is already the output of function 'first' (ReLU)"});
}

TEST(MalformedNnp, UnsupportedOrMissingFiles) {
  ScratchDir dir;
  write_file_atomic(dir.path("m.onnx"), "x");
  expect_contains(error_of([&] { load_model({dir.path("m.onnx")}); }), {"m.onnx': ONNX files cannot be loaded"});
  expect_contains(error_of([&] { load_model({dir.path("absent.nnp")}); }), {"absent.nnp': cannot open"});
  expect_contains(error_of([&] { load_model({dir.path("absent.xyz")}); }), {"absent.xyz': no such file"});
  expect_contains(error_of([&] { load_model({}); }), {"no model file given"});
}

TEST(MalformedNnp, UnreadableSolverStatesAreSkippedWithAWarning) {
  ScratchDir dir;
  const std::string config = "network { name: \"n\" }\noptimizer { name: \"o\" solver { type: \"Adam\" } }\n";
  write_zip(dir.path("m.nnp"),
            {{"network.nntxt", config}, {"o_Adam_optimizer.h5.optimizer", "\x89HDF\r\n\x1a\nbroken"}});
  std::vector<std::string> warnings;
  set_log_sink([&](LogLevel level, const std::string& text) {
    if (level == LogLevel::kWarning) warnings.push_back(text);
  });
  ir::Model m = load_model({dir.path("m.nnp")});
  EXPECT_TRUE(m.optimizers[0].solver.states.empty());
  // A state file that matches no optimizer is ignored with a warning, like upstream.
  write_zip(dir.path("other.nnp"), {{"network.nntxt", config}, {"x_Sgd_optimizer.h5.optimizer", "whatever"}});
  EXPECT_TRUE(load_model({dir.path("other.nnp")}).optimizers[0].solver.states.empty());
  set_log_sink(nullptr);
  ASSERT_EQ(warnings.size(), 2u);
  expect_contains(warnings[0],
                  {"m.nnp': 'o_Adam_optimizer.h5.optimizer': corrupt HDF5 data", "solver states ignored"});
  expect_contains(warnings[1], {"other.nnp': 'x_Sgd_optimizer.h5.optimizer' matches no optimizer"});
}

}  // namespace
}  // namespace nn::formats
