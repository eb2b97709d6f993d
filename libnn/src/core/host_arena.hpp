// Host blocks of activation size packed low in a few large mappings: address-ordered first fit.
#pragma once
#include <cstddef>

// Set in AddressSanitizer builds (GCC's macro, clang's feature test), where the arena hands out nothing.
#if defined(__SANITIZE_ADDRESS__)
#define NN_HOST_ARENA_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NN_HOST_ARENA_OFF 1
#endif
#endif

namespace nn {

// A 64-byte aligned block of `bytes` (a multiple of 64) at the lowest free address that fits, or null when no
// more memory can be mapped (and always in sanitizer builds, whose malloc guards its blocks).
void* arena_allocate(size_t bytes);
// Gives back a block arena_allocate returned, merged with its free neighbours.
void arena_free(void* p, size_t bytes);
// Whether `p` lies in one of the arena's mappings.
bool arena_holds(const void* p);

}  // namespace nn
