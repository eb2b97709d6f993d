// Element types of NdArray. float32 is first-class; the others serve specific functions.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace nn {

enum class DType : uint8_t { kFloat32, kFloat16, kFloat64, kInt32, kInt64, kUInt8, kInt8, kBool };

size_t dtype_size(DType t);
const char* dtype_name(DType t);

template <class T>
struct DTypeOf;
template <>
struct DTypeOf<float> {
  static constexpr DType value = DType::kFloat32;
};
template <>
struct DTypeOf<double> {
  static constexpr DType value = DType::kFloat64;
};
template <>
struct DTypeOf<int32_t> {
  static constexpr DType value = DType::kInt32;
};
template <>
struct DTypeOf<int64_t> {
  static constexpr DType value = DType::kInt64;
};
template <>
struct DTypeOf<uint8_t> {
  static constexpr DType value = DType::kUInt8;
};
template <>
struct DTypeOf<int8_t> {
  static constexpr DType value = DType::kInt8;
};
template <>
struct DTypeOf<bool> {
  static constexpr DType value = DType::kBool;
};

}  // namespace nn
