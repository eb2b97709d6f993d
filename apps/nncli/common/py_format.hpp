// Python-compatible text for values nnabla_cli prints: float repr, lists of dims.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace nncli {

// repr() of a Python float, e.g. 1.0, 0.0010000000474974513, 1e-05, 1e+16, -inf, nan.
std::string py_float_repr(double value);
// str() of a Python list of ints: [-1, 1, 28, 28], [] when empty.
std::string py_int_list(const std::vector<int64_t>& values);
// The shortest decimal text that reads back as the same float32 (for JSON and text outputs).
std::string shortest_float(float value);

}  // namespace nncli
