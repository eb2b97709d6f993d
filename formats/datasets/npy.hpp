// NPY arrays (numpy.save format 1.0/2.0/3.0): reading records from a byte stream and writing them.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nn/core/shape.hpp"

namespace nn::formats::datasets {

struct NpyArray {
  std::string descr;  // numpy dtype string such as "<f4", "|u1"
  Shape shape;
  std::vector<double> values;  // C order, converted from the stored dtype
};

// Reads one NPY record starting at offset and advances offset past it. display_name appears in errors.
// Versions 1.0-3.0; bool, (u)int8-64 and float16/32/64 in either byte order, C or Fortran order. Sizes are
// checked against the bytes there are before anything is allocated.
NpyArray read_npy(std::string_view bytes, size_t& offset, const std::string& display_name);
// A whole .npy file: one record and no byte after its data.
NpyArray read_npy_file(std::string_view bytes, const std::string& display_name);

// One NPY (version 1.0) record of float32 ("<f4"), float64 ("<f8"), uint8 ("|u1") or uint16 ("<u2").
std::string npy_record(const std::string& descr, const Shape& shape, const std::vector<double>& values);

}  // namespace nn::formats::datasets
