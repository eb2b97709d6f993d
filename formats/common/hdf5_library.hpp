// libhdf5 opened with dlopen on first use: nncli runs that touch no HDF5 file do not map it, nor the
// libcurl, TLS and Kerberos libraries Debian's HDF5 pulls in (most of start-up time).
#pragma once
#include <hdf5.h>

namespace nn::formats::h5 {

struct Library {
#define NN_H5_FUNCTION(name) decltype(&::name) name = nullptr;
#include "formats/common/hdf5_functions.def"
#undef NN_H5_FUNCTION
  // Identifiers hdf5.h reads from library globals through macros (H5T_NATIVE_FLOAT, H5P_FILE_ACCESS, ...).
  hid_t native_float = -1, native_double = -1, native_int8 = -1, native_int64 = -1;
  hid_t ieee_f32le = -1, std_i64le = -1;
  hid_t file_access_class = -1, dataset_access_class = -1, link_create_class = -1;
};

// H5F_ACC_RDONLY and H5F_ACC_TRUNC without the H5check()/H5open() calls hdf5.h wraps them in.
constexpr unsigned kOpenReadOnly = 0x0000u, kCreateTruncate = 0x0002u;

// The loaded library (opened once, thread-safe); throws nn::Error when libhdf5 cannot be loaded.
const Library& lib();

}  // namespace nn::formats::h5
