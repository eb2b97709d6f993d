// Shape helpers.
#include "nn/core/shape.hpp"

#include "nn/core/error.hpp"

namespace nn {

int64_t shape_size(const Shape& s) { return shape_size(s, 0, s.size()); }

int64_t shape_size(const Shape& s, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end && i < s.size(); ++i) n *= s[i];
  return n;
}

Shape shape_strides(const Shape& s) {
  Shape st(s.size(), 1);
  for (int i = int(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

std::string to_string(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) r += ", ";
    r += std::to_string(s[i]);
  }
  if (s.size() == 1) r += ",";
  return r + ")";
}

int64_t checked_shape_size(const Shape& s, int64_t limit, const std::string& what) {
  int64_t n = 1;
  for (auto d : s) {
    NN_CHECK(d >= 0) << what << ": negative dimension " << d << " in shape " << to_string(s);
    NN_CHECK(d <= limit && (d == 0 || n <= limit / d))
        << what << ": shape " << to_string(s) << " is too large (more than " << limit << " elements)";
    n *= d;
  }
  return n;
}

void check_shape(const Shape& s, const std::string& what) { checked_shape_size(s, kMaxArrayElements, what); }

int normalize_axis(int64_t axis, size_t ndim, const char* what) {
  int64_t a = axis < 0 ? axis + int64_t(ndim) : axis;
  NN_CHECK(a >= 0 && a < int64_t(std::max<size_t>(ndim, 1)))
      << what << " " << axis << " is out of range for " << ndim << " dimensions";
  return int(a);
}

}  // namespace nn
