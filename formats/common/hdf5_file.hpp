// Thin RAII layer over the HDF5 C library: quiet error stacks, in-memory files, typed attributes.
#pragma once
#include "formats/common/hdf5_library.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace nn::formats::h5 {

// Owns one HDF5 identifier and closes it with the matching H5?close.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& o) noexcept : id_(o.id_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  ~Handle() { reset(); }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void reset();

 private:
  hid_t id_ = -1;
};

// Turns off HDF5's automatic error printing while alive (the library never prints).
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();

 private:
  H5E_auto2_t old_func_ = nullptr;
  void* old_data_ = nullptr;
};

// The innermost message of HDF5's current error stack ("" if none), for error texts.
std::string last_error();

// Opens HDF5 bytes read-only (a copy is kept by HDF5). display_name is used in messages.
Handle open_image(std::string_view bytes, const std::string& display_name);
// Opens an HDF5 file read-only.
Handle open_file(const std::string& path);
// Creates an empty in-memory HDF5 file; image() returns its bytes.
Handle create_memory_file();
std::string image(hid_t file);

// Opens a dataset by path below parent without leaving the file: external links are refused (a model
// must not make nncli read other files: an external link throws, one met on the way fails the open).
// Returns an invalid handle when the dataset cannot be opened.
Handle open_dataset(hid_t parent, const std::string& path);

// Depth-first walk over hard links below root (sorted by name); path is relative ("a/b/W").
// Soft and external links are not followed.
struct Entry {
  std::string path;
  bool is_dataset = false;  // otherwise a group
};
std::vector<Entry> list_objects(hid_t root);

// Scalar numeric attribute (integer, float, enum or bool) as int64; false if absent.
bool read_int_attribute(hid_t object, const char* name, int64_t* value);
void write_int64_attribute(hid_t object, const char* name, int64_t value);
void write_bool_attribute(hid_t object, const char* name, bool value);  // h5py style enum FALSE/TRUE

// Dataset shape; data converted to float32 from any integer, float or enum type. Refuses datasets whose
// element count is absurd for the bytes actually stored (compression bombs, corrupt headers), and
// datasets whose data lives outside the file (external raw storage, virtual datasets).
std::vector<int64_t> dataset_shape(hid_t dataset);
std::vector<float> read_dataset_as_float(hid_t dataset, const std::string& what);
int64_t read_scalar_int_dataset(hid_t dataset, const std::string& what);

// Creates dataset `path` (intermediate groups too) of float32 with the given shape ({} = scalar).
Handle write_float_dataset(hid_t parent, const std::string& path, const std::vector<int64_t>& shape,
                           const float* data);
Handle write_int64_scalar_dataset(hid_t parent, const std::string& path, int64_t value);
Handle create_group_path(hid_t parent, const std::string& path);  // with intermediate groups

// Runs `read` once in a forked child first: libhdf5 1.10 itself crashes on some corrupt files (a use after
// free while it lists attributes), and that must end as one error line naming the file, not as nncli's
// death. When the child survives, this process runs the same deterministic read. kInvalid when it dies.
void rehearse_in_child(const std::string& display_name, const std::function<void()>& read);
template <class F>
auto read_guarded(const std::string& display_name, F&& read) -> decltype(read()) {
  rehearse_in_child(display_name, [&] { (void)read(); });
  return read();
}

}  // namespace nn::formats::h5
