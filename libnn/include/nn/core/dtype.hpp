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
// DTypeOf<T>::value for each element type an array can hold.
#define NN_DTYPE_OF(T, D)                    \
  template <>                                \
  struct DTypeOf<T> {                        \
    static constexpr DType value = DType::D; \
  }
NN_DTYPE_OF(float, kFloat32);
NN_DTYPE_OF(double, kFloat64);
NN_DTYPE_OF(int32_t, kInt32);
NN_DTYPE_OF(int64_t, kInt64);
NN_DTYPE_OF(uint8_t, kUInt8);
NN_DTYPE_OF(int8_t, kInt8);
NN_DTYPE_OF(bool, kBool);
#undef NN_DTYPE_OF

}  // namespace nn
