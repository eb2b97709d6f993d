// Parameter files: parameter.h5 (both writers' attribute styles, dtypes, order) and parameter.protobuf.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "formats/common/atomic_file.hpp"
#include "formats/common/hdf5_file.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "formats/nnp/nnp_writer.hpp"
#include "formats/nnp/parameter_h5.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

using test::error_of;
using test::ScratchDir;
using test::testdata;

std::vector<float> read_floats(const std::string& path) {
  std::string bytes = read_file(path);
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

// Compares parameters with the raw float32 files listed in a golden manifest (name \t shape \t file).
void expect_matches_manifest(const std::vector<ir::Parameter>& params, const std::string& dir,
                             const std::string& manifest) {
  std::ifstream in(dir + "/" + manifest);
  std::string line;
  std::getline(in, line);  // header
  size_t rows = 0;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string name, shape, file;
    std::getline(ss, name, '\t');
    std::getline(ss, shape, '\t');
    std::getline(ss, file, '\t');
    auto it = std::find_if(params.begin(), params.end(), [&](const ir::Parameter& p) { return p.name == name; });
    ASSERT_NE(it, params.end()) << name;
    std::string dims;  // "[64, 32]" -> "64, 32"
    for (size_t i = 0; i < it->shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(it->shape[i]);
    EXPECT_EQ("[" + dims + "]", shape) << name;
    EXPECT_TRUE(it->data == read_floats(dir + "/" + file)) << name;
    ++rows;
  }
  EXPECT_EQ(rows, params.size());
}

TEST(ParameterH5, PythonWrittenFileMatchesRawCopies) {
  const std::string dir = testdata("golden/training/digits_mlp_sgd");
  NN_REQUIRE_TESTDATA(dir + "/initial_parameters.h5");
  auto params = nnp::read_h5_parameters_file(dir + "/initial_parameters.h5");
  ASSERT_EQ(params.size(), 4u);
  EXPECT_EQ(params[0].name, "fc1/affine/W");  // index attribute order
  EXPECT_EQ(params[3].name, "fc2/affine/b");
  expect_matches_manifest(params, dir, "initial_params_manifest.tsv");
  // The same file inside net.nnp as parameter.h5.
  ir::Model m = load_model({dir + "/net.nnp"});
  ASSERT_EQ(m.parameters.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_TRUE(m.parameters[i].data == params[i].data);
}

TEST(ParameterH5, CppWrittenFileMatchesRawCopies) {
  const std::string dir = testdata("golden/training/digits_mlp_sgd/result_nbla");
  NN_REQUIRE_TESTDATA(dir + "/parameters.h5");
  auto params = nnp::read_h5_parameters_file(dir + "/parameters.h5");
  expect_matches_manifest(params, dir, "trained_params_manifest.tsv");
  for (const auto& p : params) EXPECT_TRUE(p.need_grad) << p.name;
}

TEST(ParameterH5, ProtobufAndH5OfTheSameModelAgree) {
  const std::string path = testdata("nnc_results/qiiajia_lenet_param_h5/results.nnp");
  NN_REQUIRE_TESTDATA(path);
  ir::Model from_h5 = load_model({path});
  ScratchDir dir;
  NnpSaveOptions options;
  options.parameter_format = ParameterFormat::kProtobuf;
  save_nnp(from_h5, dir.path("pb.nnp"), options);
  save_h5_parameters(from_h5.parameters, dir.path("params.h5"));
  ir::Model from_pb = load_model({dir.path("pb.nnp")});
  auto from_h5_again = nnp::read_h5_parameters_file(dir.path("params.h5"));
  ASSERT_EQ(from_pb.parameters.size(), from_h5.parameters.size());
  ASSERT_EQ(from_h5_again.size(), from_h5.parameters.size());
  for (size_t i = 0; i < from_h5.parameters.size(); ++i) {
    EXPECT_EQ(from_pb.parameters[i].name, from_h5.parameters[i].name);
    EXPECT_EQ(from_pb.parameters[i].shape, from_h5.parameters[i].shape);
    EXPECT_TRUE(from_pb.parameters[i].data == from_h5.parameters[i].data);
    EXPECT_EQ(from_h5_again[i].name, from_h5.parameters[i].name);
    EXPECT_EQ(from_h5_again[i].need_grad, from_h5.parameters[i].need_grad);
  }
}

TEST(ParameterH5, WriterUsesUpstreamAttributes) {
  std::vector<ir::Parameter> params = {{"z/W", {2, 1}, {1.f, 2.f}, true}, {"a", {1}, {3.f}, false}};
  std::string image = nnp::h5_parameters_image(params);
  h5::QuietErrors quiet;
  h5::Handle file = h5::open_image(image, "mem.h5");
  h5::Handle dset(H5Dopen2(file.get(), "z/W", H5P_DEFAULT));
  ASSERT_TRUE(dset.valid());
  h5::Handle type(H5Dget_type(dset.get()));
  EXPECT_TRUE(H5Tequal(type.get(), H5T_IEEE_F32LE) > 0);
  int64_t index = -1, need_grad = -1;
  ASSERT_TRUE(h5::read_int_attribute(dset.get(), "index", &index));
  ASSERT_TRUE(h5::read_int_attribute(dset.get(), "need_grad", &need_grad));
  EXPECT_EQ(index, 0);
  EXPECT_EQ(need_grad, 1);
  h5::Handle attr(H5Aopen(dset.get(), "need_grad", H5P_DEFAULT));
  h5::Handle attr_type(H5Aget_type(attr.get()));
  EXPECT_EQ(H5Tget_class(attr_type.get()), H5T_ENUM);  // numpy bool as h5py writes it
  // Reading restores the write order (index), not the alphabetical order of the paths.
  auto back = nnp::read_h5_parameters(image, "mem.h5");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].name, "z/W");
  EXPECT_EQ(back[1].name, "a");
  EXPECT_FALSE(back[1].need_grad);
}

TEST(ParameterH5, AnyNumericTypeBecomesFloat) {
  h5::QuietErrors quiet;
  h5::Handle file = h5::create_memory_file();
  hsize_t dims[1] = {3};
  h5::Handle space(H5Screate_simple(1, dims, nullptr));
  const int32_t ints[3] = {1, -2, 3};
  h5::Handle d1(H5Dcreate2(file.get(), "ints", H5T_STD_I32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  H5Dwrite(d1.get(), H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, ints);
  h5::write_int64_attribute(d1.get(), "index", 1);
  const double doubles[3] = {0.5, 1.5, 2.5};
  h5::Handle group = h5::create_group_path(file.get(), "g");
  h5::Handle d2(
      H5Dcreate2(group.get(), "doubles", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  H5Dwrite(d2.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, doubles);
  h5::write_int64_attribute(d2.get(), "index", 0);
  d1.reset();
  d2.reset();
  auto params = nnp::read_h5_parameters(h5::image(file.get()), "types.h5");
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[0].name, "g/doubles");
  EXPECT_EQ(params[0].data, (std::vector<float>{0.5f, 1.5f, 2.5f}));
  EXPECT_EQ(params[1].data, (std::vector<float>{1.f, -2.f, 3.f}));
  EXPECT_FALSE(params[1].need_grad);  // attribute missing
}

TEST(ParameterH5, CorruptH5NamesTheFile) {
  ScratchDir dir;
  std::string bytes = nnp::h5_parameters_image({{"w", {4}, {1, 2, 3, 4}, true}});
  write_file_atomic(dir.path("cut.h5"), bytes.substr(0, bytes.size() / 3));
  std::string msg = error_of([&] { load_model({dir.path("cut.h5")}); });
  EXPECT_NE(msg.find("cut.h5'"), std::string::npos) << msg;
  write_file_atomic(dir.path("text.h5"), "not hdf5 at all");
  msg = error_of([&] { load_model({dir.path("text.h5")}); });
  EXPECT_NE(msg.find("not an HDF5 file"), std::string::npos) << msg;
}

TEST(ParameterProtobuf, LaterFilesReplaceSameNamedParameters) {
  ScratchDir dir;
  ir::Model a;
  a.parameters = {{"w", {2}, {1, 2}, true}, {"b", {1}, {0}, true}};
  ir::Model b;
  b.parameters = {{"w", {2}, {5, 6}, false}, {"c", {1}, {7}, true}};
  save_protobuf(a, dir.path("a.protobuf"));
  save_h5_parameters(b.parameters, dir.path("b.h5"));
  ir::Model m = load_model({dir.path("a.protobuf"), dir.path("b.h5")});
  ASSERT_EQ(m.parameters.size(), 3u);
  EXPECT_EQ(m.parameters[0].name, "w");
  EXPECT_EQ(m.parameters[0].data, (std::vector<float>{5, 6}));
  EXPECT_EQ(m.parameters[2].name, "c");
  ir::Model target = a;
  load_parameters_into(target, dir.path("b.h5"));
  EXPECT_EQ(target.parameters.size(), 3u);
  EXPECT_EQ(target.parameters[0].data, (std::vector<float>{5, 6}));
}

}  // namespace
}  // namespace nn::formats
