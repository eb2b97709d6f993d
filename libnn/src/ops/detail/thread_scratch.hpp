// Scratch memory of the calling thread for copies that live during one kernel call only (activations reordered
// into a oneDNN primitive's layout): shared by every function, so a network holds such copies once.
#pragma once
#include <cstddef>

namespace nn::ops {

// `bytes` of 64-byte aligned memory, valid until the next call on this thread. Grows, never shrinks; throws
// std::bad_alloc when it cannot grow.
char* thread_scratch(size_t bytes);

// The bytes a part of the scratch takes when parts are placed side by side (each 64-byte aligned).
inline size_t scratch_part(size_t bytes) { return (bytes + 63) / 64 * 64; }

}  // namespace nn::ops
