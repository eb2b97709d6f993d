// A model or dataset file must never make nncli read other host files: HDF5 external storage and
// external links, paths leading out of the model's folder, FIFOs and other special files.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "formats/common/atomic_file.hpp"
#include "formats/common/contained_path.hpp"
#include "formats/common/hdf5_file.hpp"
#include "formats/datasets/cache_data_source.hpp"
#include "formats/nnp/parameter_h5.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

namespace fs = std::filesystem;
using test::error_of;
using test::ScratchDir;
using test::write_text_file;

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << text;
}

// An HDF5 file holding dataset `name` of n floats whose raw data is the external file `target` (what
// h5py's create_dataset(..., external=[(target, 0, n * 4)]) writes).
void write_h5_with_external_storage(const std::string& path, const std::string& name, const std::string& target,
                                    hsize_t n) {
  h5::QuietErrors quiet;
  h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_TRUE(file.valid());
  h5::Handle dcpl(H5Pcreate(H5P_DATASET_CREATE));
  ASSERT_GE(H5Pset_external(dcpl.get(), target.c_str(), 0, n * 4), 0);
  h5::Handle space(H5Screate_simple(1, &n, nullptr));
  h5::Handle lcpl(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  h5::Handle dset(
      H5Dcreate2(file.get(), name.c_str(), H5T_IEEE_F32LE, space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT));
  ASSERT_TRUE(dset.valid());
}

TEST(HostFiles, H5ParameterWithExternalStorageIsRefused) {
  ScratchDir dir;
  const std::string secret = dir.path("secret.bin");
  write_text_file(secret, std::string(16, 'S'));
  const std::string h5 = dir.path("parameter.h5");
  write_h5_with_external_storage(h5, "fc/W", secret, 4);
  const std::string msg = error_of([&] { nnp::read_h5_parameters_file(h5); });
  expect_contains(msg, "parameter 'fc/W'");
  expect_contains(msg, "external file ('" + secret + "')");
  // The same bytes inside an .nnp are read through an in-memory image: refused the same way.
  const std::string in_nnp = error_of([&] { nnp::read_h5_parameters(read_file(h5), "model.nnp/parameter.h5"); });
  expect_contains(in_nnp, "external file");
}

TEST(HostFiles, H5ExternalLinksAreNotFollowed) {
  ScratchDir dir;
  const std::string other = dir.path("elsewhere.h5");
  {
    h5::Handle file(H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    const float x[2] = {1.f, 2.f};
    h5::write_float_dataset(file.get(), "g/x", {2, 1}, x);
  }
  const std::string cache = dir.path("cache");
  fs::create_directories(cache);
  const std::string path = cache + "/cache_000000.h5";
  {
    h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    ASSERT_GE(H5Lcreate_external(other.c_str(), "g/x", file.get(), "x", H5P_DEFAULT, H5P_DEFAULT), 0);
    ASSERT_GE(H5Lcreate_external(other.c_str(), "g", file.get(), "g", H5P_DEFAULT, H5P_DEFAULT), 0);
  }
  h5::QuietErrors quiet;
  h5::Handle file = h5::open_file(path);
  expect_contains(error_of([&] { h5::open_dataset(file.get(), "x"); }), "'x' is an external link to another file");
  EXPECT_FALSE(h5::open_dataset(file.get(), "g/x").valid());  // an external link on the way fails the open
  EXPECT_TRUE(h5::list_objects(file.get()).empty());
  // A cache file whose only datasets are external links holds nothing nncli reads.
  expect_contains(error_of([&] { datasets::CacheDataSource::open(cache); }), "holds no datasets");
}

TEST(HostFiles, CacheIndexCannotNameFilesOutsideTheCache) {
  ScratchDir dir;
  fs::create_directories(dir.path("cache"));
  write_text_file(dir.path("cache/cache_info.csv"), "x\n");
  write_text_file(dir.path("cache/cache_index.csv"), "../../../../etc/passwd,1\n");
  const std::string msg = error_of([&] { datasets::CacheDataSource::open(dir.path("cache")); });
  expect_contains(msg, "cache_index.csv:1");
  expect_contains(msg, "leads out of the model's folder");
}

TEST(HostFiles, ResolveInsideRefusesEscapes) {
  ScratchDir dir;
  fs::create_directories(dir.path("model"));
  write_text_file(dir.path("model/w.bin"), "1234");
  write_text_file(dir.path("outside.bin"), "1234");
  fs::create_symlink(dir.path("outside.bin"), dir.path("model/link.bin"));
  fs::create_symlink(dir.path("model/w.bin"), dir.path("model/inner_link.bin"));
  const std::string base = dir.path("model");
  EXPECT_EQ(resolve_inside(base, "w.bin", "t"), dir.path("model/w.bin"));
  EXPECT_EQ(resolve_inside(base, "inner_link.bin", "t"), dir.path("model/inner_link.bin"));  // stays inside
  expect_contains(error_of([&] { resolve_inside(base, "/etc/passwd", "t"); }), "is an absolute path");
  expect_contains(error_of([&] { resolve_inside(base, "../outside.bin", "t"); }),
                  "leads out of the model's folder");
  expect_contains(error_of([&] { resolve_inside(base, "sub/../../outside.bin", "t"); }), "('..')");
  expect_contains(error_of([&] { resolve_inside(base, "link.bin", "t"); }), "symbolic link that leads out");
  expect_contains(error_of([&] { resolve_inside(base, "", "t"); }), "empty file name");
  expect_contains(error_of([&] { resolve_inside(base, "absent.bin", "t"); }), "is missing or unreadable");
}

TEST(HostFiles, SpecialFilesAreRefusedWithoutBlocking) {
  ScratchDir dir;
  const std::string fifo = dir.path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_contains(error_of([&] { read_file(fifo); }), "not a regular file");
  expect_contains(error_of([&] { read_file_range(fifo, 0, 4, "'pipe'"); }), "not a regular file");
  expect_contains(error_of([&] { require_regular_file(fifo); }), "not a regular file");
  expect_contains(error_of([&] { read_file(dir.path("")); }), "not a regular file");  // a directory
}

TEST(HostFiles, FileRangeChecksWithoutOverflow) {
  ScratchDir dir;
  const std::string f = dir.path("data.bin");
  write_text_file(f, "0123456789");
  EXPECT_EQ(read_file_range(f, 2, 3, "t"), "234");
  EXPECT_EQ(read_file_range(f, 7, -1, "t"), "789");
  EXPECT_EQ(read_file_range(f, 10, 0, "t"), "");
  expect_contains(error_of([&] { read_file_range(f, (uint64_t(1) << 63) - 8, 16, "t"); }),
                  "lies outside the file");
  expect_contains(error_of([&] { read_file_range(f, 8, 3, "t"); }), "lies outside the file");
  expect_contains(error_of([&] { read_file_range(f, 11, -1, "t"); }), "lies outside the file");
}

}  // namespace
}  // namespace nn::formats
