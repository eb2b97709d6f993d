// Shape: dims as int64, with size/stride helpers and "(2, 3, 4)" printing.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace nn {

using Shape = std::vector<int64_t>;

// Largest element count libnn accepts for one array (2^40 floats = 4 TiB): guards absurd shapes.
constexpr int64_t kMaxArrayElements = int64_t(1) << 40;

int64_t shape_size(const Shape& s);                            // product of dims (1 for a scalar)
int64_t shape_size(const Shape& s, size_t begin, size_t end);  // product of dims [begin, end)
Shape shape_strides(const Shape& s);                           // C-order strides in elements
std::string to_string(const Shape& s);                         // "(2, 3, 4)"
void check_shape(const Shape& s, const std::string& what);     // throws on negative/absurd dims
// The element count of s; throws "<what>: ..." on a negative dim or more than `limit` elements.
int64_t checked_shape_size(const Shape& s, int64_t limit, const std::string& what);
int normalize_axis(int64_t axis, size_t ndim, const char* what = "axis");  // negative -> ndim+axis

}  // namespace nn

namespace std {
inline std::ostream& operator<<(std::ostream& os, const nn::Shape& s) { return os << nn::to_string(s); }
}  // namespace std
