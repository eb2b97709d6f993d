// Opens libhdf5 and resolves the functions and global identifiers nncli uses.
#include "formats/common/hdf5_library.hpp"

#include <dlfcn.h>

#include "nn/core/error.hpp"

namespace nn::formats::h5 {

namespace {

void* symbol(void* handle, const char* name) {
  void* p = dlsym(handle, name);
  NN_CHECK(p) << "libhdf5 (" << NN_HDF5_LIBRARY << ") lacks " << name;
  return p;
}

// A program that links HDF5 itself (the tests do) holds copy-relocated instances of the library's globals,
// and the library then uses those: the global scope is searched first so the live instance is read.
hid_t global_id(void* handle, const char* name) {
  const void* p = dlsym(RTLD_DEFAULT, name);
  return *static_cast<const hid_t*>(p ? p : symbol(handle, name));
}

Library load() {
  void* handle = dlopen(NN_HDF5_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!handle) handle = dlopen(NN_HDF5_SONAME, RTLD_NOW | RTLD_LOCAL);
  NN_CHECK(handle) << "cannot load the HDF5 library (" << NN_HDF5_LIBRARY << "): " << dlerror();
  Library l;
#define NN_H5_FUNCTION(name) l.name = reinterpret_cast<decltype(l.name)>(symbol(handle, #name));
#include "formats/common/hdf5_functions.def"
#undef NN_H5_FUNCTION
  NN_CHECK(l.H5open() >= 0) << "the HDF5 library failed to initialise";  // sets the globals below
  l.native_float = global_id(handle, "H5T_NATIVE_FLOAT_g");
  l.native_double = global_id(handle, "H5T_NATIVE_DOUBLE_g");
  l.native_int8 = global_id(handle, "H5T_NATIVE_INT8_g");
  l.native_int64 = global_id(handle, "H5T_NATIVE_INT64_g");
  l.ieee_f32le = global_id(handle, "H5T_IEEE_F32LE_g");
  l.std_i64le = global_id(handle, "H5T_STD_I64LE_g");
  l.file_access_class = global_id(handle, "H5P_CLS_FILE_ACCESS_ID_g");
  l.dataset_access_class = global_id(handle, "H5P_CLS_DATASET_ACCESS_ID_g");
  l.link_create_class = global_id(handle, "H5P_CLS_LINK_CREATE_ID_g");
  return l;
}

}  // namespace

const Library& lib() {
  static const Library library = load();  // a failed load throws and is retried by the next call
  return library;
}

}  // namespace nn::formats::h5
