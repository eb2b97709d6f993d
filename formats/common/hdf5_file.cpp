// Thin RAII layer over the HDF5 C library.
#include "formats/common/hdf5_file.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"
#include "nn/core/shape.hpp"

namespace nn::formats::h5 {

namespace {
// HDF5 may claim at most this many times more data than it stores (deflate tops out near 1032:1).
constexpr uint64_t kMaxExpansion = 1100;
constexpr uint64_t kSlackBytes = uint64_t(1) << 20;
}  // namespace

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    reset();
    id_ = o.id_;
    o.id_ = -1;
  }
  return *this;
}

void Handle::reset() {
  if (id_ < 0) return;
  switch (lib().H5Iget_type(id_)) {
    case H5I_FILE: lib().H5Fclose(id_); break;
    case H5I_GROUP: lib().H5Gclose(id_); break;
    case H5I_DATASET: lib().H5Dclose(id_); break;
    case H5I_ATTR: lib().H5Aclose(id_); break;
    case H5I_DATASPACE: lib().H5Sclose(id_); break;
    case H5I_DATATYPE: lib().H5Tclose(id_); break;
    case H5I_GENPROP_LST: lib().H5Pclose(id_); break;
    default: lib().H5Idec_ref(id_); break;
  }
  id_ = -1;
}

QuietErrors::QuietErrors() {
  lib().H5Eget_auto2(H5E_DEFAULT, &old_func_, &old_data_);
  lib().H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}
QuietErrors::~QuietErrors() { lib().H5Eset_auto2(H5E_DEFAULT, old_func_, old_data_); }

std::string last_error() {
  std::string text;
  auto walk = [](unsigned n, const H5E_error2_t* err, void* data) -> herr_t {
    auto* out = static_cast<std::string*>(data);
    if (out->empty() && err->desc) *out = err->desc;
    return 0;
  };
  lib().H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk, &text);
  return text;
}

Handle open_image(std::string_view bytes, const std::string& display_name) {
  static std::atomic<uint64_t> counter{0};
  NN_CHECK(bytes.size() >= 8 && std::memcmp(bytes.data(), "\x89HDF\r\n\x1a\n", 8) == 0)
      << "'" << display_name << "': not an HDF5 file";
  Handle fapl(lib().H5Pcreate(lib().file_access_class));
  NN_CHECK(fapl.valid() && lib().H5Pset_fapl_core(fapl.get(), 1 << 20, 0) >= 0 &&
           lib().H5Pset_file_image(fapl.get(), const_cast<char*>(bytes.data()), bytes.size()) >= 0)
      << "'" << display_name << "': cannot prepare HDF5 image: " << last_error();
  std::string name = "nn_image_" + std::to_string(counter++);
  Handle file(lib().H5Fopen(name.c_str(), kOpenReadOnly, fapl.get()));
  NN_CHECK(file.valid()) << "'" << display_name << "': corrupt HDF5 data: " << last_error();
  return file;
}

Handle open_file(const std::string& path) {
  require_regular_file(path);
  htri_t is_h5 = lib().H5Fis_hdf5(path.c_str());
  NN_CHECK(is_h5 > 0) << "'" << path << "': " << (is_h5 == 0 ? "not an HDF5 file" : "cannot open the file");
  Handle file(lib().H5Fopen(path.c_str(), kOpenReadOnly, H5P_DEFAULT));
  NN_CHECK(file.valid()) << "'" << path << "': corrupt HDF5 file: " << last_error();
  return file;
}

Handle create_memory_file() {
  static std::atomic<uint64_t> counter{0};
  Handle fapl(lib().H5Pcreate(lib().file_access_class));
  NN_CHECK(fapl.valid() && lib().H5Pset_fapl_core(fapl.get(), 1 << 20, 0) >= 0)
      << "cannot set up an in-memory HDF5 file: " << last_error();
  std::string name = "nn_new_" + std::to_string(counter++);
  Handle file(lib().H5Fcreate(name.c_str(), kCreateTruncate, H5P_DEFAULT, fapl.get()));
  NN_CHECK(file.valid()) << "cannot create an in-memory HDF5 file: " << last_error();
  return file;
}

std::string image(hid_t file) {
  NN_CHECK(lib().H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0) << "cannot flush HDF5 data: " << last_error();
  ssize_t size = lib().H5Fget_file_image(file, nullptr, 0);
  NN_CHECK(size > 0) << "cannot get the HDF5 image: " << last_error();
  std::string bytes(size_t(size), '\0');
  NN_CHECK(lib().H5Fget_file_image(file, bytes.data(), bytes.size()) == size)
      << "cannot get the HDF5 image: " << last_error();
  return bytes;
}

namespace {
// Link-traversal callback that refuses every external link (HDF5 would open the file it names).
herr_t refuse_external_link(const char*, const char*, const char*, const char*, unsigned*, hid_t, void*) {
  return -1;
}
}  // namespace

Handle open_dataset(hid_t parent, const std::string& path) {
  // A dataset-access list is also a link-access list: every step of the path goes through the callback.
  Handle dapl(lib().H5Pcreate(lib().dataset_access_class));
  if (!dapl.valid() || lib().H5Pset_elink_cb(dapl.get(), refuse_external_link, nullptr) < 0) return Handle();
  H5L_info_t info{};
  if (lib().H5Lexists(parent, path.c_str(), dapl.get()) > 0 &&
      lib().H5Lget_info(parent, path.c_str(), &info, dapl.get()) >= 0)
    NN_CHECK(info.type != H5L_TYPE_EXTERNAL)
        << "'" << path << "' is an external link to another file; only data inside the HDF5 file is read";
  return Handle(lib().H5Dopen2(parent, path.c_str(), dapl.get()));
}

std::vector<Entry> list_objects(hid_t root) {
  struct Walk {
    std::vector<Entry> entries;
  } walk;
  auto visit = [](hid_t group, const char* name, const H5L_info_t* info, void* data) -> herr_t {
    if (info->type != H5L_TYPE_HARD) return 0;
    hid_t obj = lib().H5Oopen(group, name, H5P_DEFAULT);
    if (obj < 0) return -1;
    H5I_type_t type = lib().H5Iget_type(obj);
    lib().H5Oclose(obj);
    if (type == H5I_DATASET || type == H5I_GROUP)
      static_cast<Walk*>(data)->entries.push_back({name, type == H5I_DATASET});
    return 0;
  };
  NN_CHECK(lib().H5Lvisit(root, H5_INDEX_NAME, H5_ITER_INC, visit, &walk) >= 0)
      << "cannot list the HDF5 objects: " << last_error();
  return walk.entries;
}

namespace {

// Reads one integer-like value of an attribute or dataset given its file type.
template <class ReadFn>
int64_t read_integer_like(hid_t type, ReadFn&& read, const std::string& what) {
  H5T_class_t cls = lib().H5Tget_class(type);
  if (cls == H5T_INTEGER) {
    int64_t v = 0;
    NN_CHECK(read(lib().native_int64, &v) >= 0) << what << ": " << last_error();
    return v;
  }
  if (cls == H5T_FLOAT) {
    double v = 0;
    NN_CHECK(read(lib().native_double, &v) >= 0) << what << ": " << last_error();
    return int64_t(v);
  }
  if (cls == H5T_ENUM || cls == H5T_BITFIELD) {
    Handle native(lib().H5Tget_native_type(type, H5T_DIR_ASCEND));
    size_t size = lib().H5Tget_size(native.get());
    NN_CHECK(native.valid() && size >= 1 && size <= 8) << what << ": unsupported enum size";
    uint64_t raw = 0;
    NN_CHECK(read(native.get(), &raw) >= 0) << what << ": " << last_error();
    return int64_t(raw);  // little-endian host: low bytes hold the value; bools are 0/1
  }
  NN_FAIL(ErrorCode::kInvalid) << what << ": not a numeric value";
}

}  // namespace

bool read_int_attribute(hid_t object, const char* name, int64_t* value) {
  if (lib().H5Aexists(object, name) <= 0) return false;
  Handle attr(lib().H5Aopen(object, name, H5P_DEFAULT));
  NN_CHECK(attr.valid()) << "attribute '" << name << "': " << last_error();
  Handle space(lib().H5Aget_space(attr.get()));
  NN_CHECK(lib().H5Sget_simple_extent_npoints(space.get()) == 1) << "attribute '" << name << "' is not a scalar";
  Handle type(lib().H5Aget_type(attr.get()));
  *value = read_integer_like(
      type.get(), [&](hid_t mem, void* buf) { return lib().H5Aread(attr.get(), mem, buf); },
      std::string("attribute '") + name + "'");
  return true;
}

namespace {
void write_scalar_attribute(hid_t object, const char* name, hid_t file_type, hid_t mem_type, const void* v) {
  Handle space(lib().H5Screate(H5S_SCALAR));
  if (lib().H5Aexists(object, name) > 0) lib().H5Adelete(object, name);
  Handle attr(lib().H5Acreate2(object, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  NN_CHECK(attr.valid() && lib().H5Awrite(attr.get(), mem_type, v) >= 0)
      << "cannot write attribute '" << name << "': " << last_error();
}
}  // namespace

void write_int64_attribute(hid_t object, const char* name, int64_t value) {
  write_scalar_attribute(object, name, lib().std_i64le, lib().native_int64, &value);
}

void write_bool_attribute(hid_t object, const char* name, bool value) {
  Handle type(lib().H5Tenum_create(lib().native_int8));
  int8_t f = 0, t = 1;
  lib().H5Tenum_insert(type.get(), "FALSE", &f);
  lib().H5Tenum_insert(type.get(), "TRUE", &t);
  int8_t v = value ? 1 : 0;
  write_scalar_attribute(object, name, type.get(), type.get(), &v);
}

std::vector<int64_t> dataset_shape(hid_t dataset) {
  Handle space(lib().H5Dget_space(dataset));
  int rank = lib().H5Sget_simple_extent_ndims(space.get());
  NN_CHECK(rank >= 0 && rank <= 32) << "bad dataset rank " << rank;
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  if (rank > 0) lib().H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  std::vector<int64_t> shape;
  for (auto d : dims) {
    NN_CHECK(d <= hsize_t(kMaxArrayElements)) << "dataset dimension " << d << " is too large";
    shape.push_back(int64_t(d));
  }
  return shape;
}

namespace {
// Throws when the dataset's data is kept outside the file: external raw storage names arbitrary host
// files (h5py's `external=`), a virtual dataset maps other files' datasets.
void check_data_inside_file(hid_t dataset, const std::string& what) {
  Handle dcpl(lib().H5Dget_create_plist(dataset));
  NN_CHECK(dcpl.valid()) << what << ": cannot read the storage properties: " << last_error();
  const int external = lib().H5Pget_external_count(dcpl.get());
  if (external > 0) {
    char name[256] = {};
    off_t offset = 0;
    hsize_t size = 0;
    lib().H5Pget_external(dcpl.get(), 0, sizeof(name) - 1, name, &offset, &size);
    NN_FAIL(ErrorCode::kInvalid) << what << ": its data is stored in an external file ('" << name
                                 << "'); only data inside the HDF5 file is read";
  }
  NN_CHECK(lib().H5Pget_layout(dcpl.get()) != H5D_VIRTUAL)
      << what << ": a virtual dataset (data mapped from other files) is not read";
}

// Throws unless the stored bytes could plausibly hold count elements of the dataset's type.
void check_storage(hid_t dataset, int64_t count, size_t element_size, const std::string& what) {
  check_data_inside_file(dataset, what);
  uint64_t claimed = uint64_t(count) * element_size;
  uint64_t stored = lib().H5Dget_storage_size(dataset);
  NN_CHECK(claimed <= stored * kMaxExpansion + kSlackBytes)
      << what << ": " << count << " elements claimed but only " << stored << " bytes stored";
}
}  // namespace

std::vector<float> read_dataset_as_float(hid_t dataset, const std::string& what) {
  std::vector<int64_t> shape = dataset_shape(dataset);
  check_shape(shape, what);
  int64_t count = shape_size(shape);
  Handle type(lib().H5Dget_type(dataset));
  H5T_class_t cls = lib().H5Tget_class(type.get());
  size_t element_size = lib().H5Tget_size(type.get());
  check_storage(dataset, count, element_size, what);
  std::vector<float> data(static_cast<size_t>(count));
  if (count == 0) return data;
  if (cls == H5T_INTEGER || cls == H5T_FLOAT) {
    NN_CHECK(lib().H5Dread(dataset, lib().native_float, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) >= 0)
        << what << ": cannot read data: " << last_error();
    return data;
  }
  if (cls == H5T_ENUM || cls == H5T_BITFIELD) {  // booleans as written by h5py
    Handle native(lib().H5Tget_native_type(type.get(), H5T_DIR_ASCEND));
    size_t size = lib().H5Tget_size(native.get());
    NN_CHECK(size >= 1 && size <= 8) << what << ": unsupported enum element size " << size;
    std::vector<uint8_t> raw(size_t(count) * size);
    NN_CHECK(lib().H5Dread(dataset, native.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) >= 0)
        << what << ": cannot read data: " << last_error();
    for (int64_t i = 0; i < count; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, raw.data() + size_t(i) * size, size);
      data[size_t(i)] = float(v);
    }
    return data;
  }
  NN_FAIL(ErrorCode::kInvalid) << what << ": unsupported HDF5 element type (class " << int(cls) << ")";
}

int64_t read_scalar_int_dataset(hid_t dataset, const std::string& what) {
  check_data_inside_file(dataset, what);
  Handle space(lib().H5Dget_space(dataset));
  NN_CHECK(lib().H5Sget_simple_extent_npoints(space.get()) == 1) << what << ": expected a single value";
  Handle type(lib().H5Dget_type(dataset));
  return read_integer_like(
      type.get(),
      [&](hid_t mem, void* buf) { return lib().H5Dread(dataset, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf); }, what);
}

namespace {
Handle intermediate_groups_lcpl() {
  Handle lcpl(lib().H5Pcreate(lib().link_create_class));
  lib().H5Pset_create_intermediate_group(lcpl.get(), 1);
  return lcpl;
}
}  // namespace

Handle write_float_dataset(hid_t parent, const std::string& path, const std::vector<int64_t>& shape,
                           const float* data) {
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  Handle space(shape.empty() ? lib().H5Screate(H5S_SCALAR)
                             : lib().H5Screate_simple(int(dims.size()), dims.data(), nullptr));
  Handle lcpl = intermediate_groups_lcpl();
  Handle dset(
      lib().H5Dcreate2(parent, path.c_str(), lib().ieee_f32le, space.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT));
  NN_CHECK(dset.valid()) << "cannot create HDF5 dataset '" << path << "': " << last_error();
  if (shape_size(shape) > 0) {
    NN_CHECK(lib().H5Dwrite(dset.get(), lib().native_float, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0)
        << "cannot write HDF5 dataset '" << path << "': " << last_error();
  }
  return dset;
}

Handle write_int64_scalar_dataset(hid_t parent, const std::string& path, int64_t value) {
  Handle space(lib().H5Screate(H5S_SCALAR));
  Handle lcpl = intermediate_groups_lcpl();
  Handle dset(
      lib().H5Dcreate2(parent, path.c_str(), lib().std_i64le, space.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT));
  NN_CHECK(dset.valid() &&
           lib().H5Dwrite(dset.get(), lib().native_int64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) >= 0)
      << "cannot write HDF5 dataset '" << path << "': " << last_error();
  return dset;
}

Handle create_group_path(hid_t parent, const std::string& path) {
  Handle lcpl = intermediate_groups_lcpl();
  Handle group(lib().H5Gcreate2(parent, path.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT));
  NN_CHECK(group.valid()) << "cannot create HDF5 group '" << path << "': " << last_error();
  return group;
}

void rehearse_in_child(const std::string& display_name, const std::function<void()>& read) {
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t pid = fork();
  if (pid < 0) return;  // no process to spare: read unguarded
  if (pid == 0) {
    try {
      read();
    } catch (...) {
      // Errors are the parent's to report, from its own identical read.
    }
    _exit(0);  // no exit handlers: the parent's temporary files and buffers stay its own
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // A sanitizer build reports and exits non-zero instead of dying by a signal.
  NN_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "'" << display_name << "': corrupt HDF5 data (the HDF5 library crashed reading it"
      << (WIFSIGNALED(status) ? ": " + std::string(strsignal(WTERMSIG(status))) : std::string()) << ")";
}

}  // namespace nn::formats::h5
