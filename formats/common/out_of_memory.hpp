// Allocation failures reported like any other input error: with the file and place that caused them.
#pragma once
#include <new>
#include <string>

#include "nn/core/error.hpp"

namespace nn::formats {

// Runs f; a std::bad_alloc inside it becomes nn::Error(kInvalid) "<what>: out of memory", so the message
// names the file being read instead of a bare "out of memory".
template <class F>
auto naming_out_of_memory(const std::string& what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    NN_FAIL(ErrorCode::kInvalid) << what << ": out of memory";
  }
}

}  // namespace nn::formats
