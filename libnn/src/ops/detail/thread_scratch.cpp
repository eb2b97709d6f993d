// The calling thread's scratch memory (thread_scratch.hpp).
#include "ops/detail/thread_scratch.hpp"

#include <cstdlib>
#include <new>

namespace nn::ops {
namespace {
struct Scratch {
  char* data = nullptr;
  size_t bytes = 0;
  ~Scratch() { std::free(data); }
};
}  // namespace

char* thread_scratch(size_t bytes) {
  thread_local Scratch scratch;
  if (bytes > scratch.bytes) {
    std::free(scratch.data);
    scratch.bytes = scratch_part(bytes);
    scratch.data = static_cast<char*>(std::aligned_alloc(64, scratch.bytes));
    if (!scratch.data) {
      scratch.bytes = 0;
      throw std::bad_alloc();
    }
  }
  return scratch.data;
}

}  // namespace nn::ops
