// The arena behind host_arena.hpp: 64 MiB mappings (larger for a larger block), each with its free ranges by
// offset, on transparent huge pages once a model uses more than 8 MiB of one. A block goes to the first range
// that fits, so live blocks stay packed at the bottom and the memory the next function writes is memory a
// recent one touched.
#include "core/host_arena.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace nn {
namespace {

constexpr size_t kChunkBytes = size_t(64) << 20;
constexpr size_t kHugePage = size_t(2) << 20;
// A mapping asks for huge pages once blocks reach this far into it: a small model (LeNet, one-shot `infer`)
// does not pay for zeroing 2 MiB pages at their first touch (0.4 ms of a 15 ms LeNet infer), a larger one runs
// on fewer TLB entries (MobileNetV2 b1 1.687 -> 1.656 ms, b32 55.6 -> 55.2, medians of 4-6 alternating runs).
constexpr size_t kHugePagesFrom = size_t(8) << 20;

struct Chunk {
  char* base = nullptr;
  size_t bytes = 0;
  bool huge = false;              // madvise'd for transparent huge pages
  std::map<size_t, size_t> free;  // offset -> length of each free range, none adjacent to another

  bool contains(const char* p) const { return p >= base && p < base + bytes; }
};

std::mutex g_mutex;
std::vector<Chunk> g_chunks;

// A new mapping of at least `at_least` bytes, aligned to huge pages.
bool map_chunk(size_t at_least) {
  const size_t bytes = std::max(kChunkBytes, (at_least + kHugePage - 1) / kHugePage * kHugePage);
  void* p =
      mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  const uintptr_t start = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
  Chunk c;
  c.base = reinterpret_cast<char*>(aligned);
  c.bytes = bytes;
  c.free.emplace(0, bytes);
  g_chunks.push_back(std::move(c));
  return true;
}

void* take_first_fit(Chunk& c, size_t bytes) {
  for (auto it = c.free.begin(); it != c.free.end(); ++it) {
    if (it->second < bytes) continue;
    const size_t offset = it->first, length = it->second;
    c.free.erase(it);
    if (length > bytes) c.free.emplace(offset + bytes, length - bytes);
    if (!c.huge && offset + bytes > kHugePagesFrom) {  // where transparent huge pages are "madvise" (a no-op
      madvise(c.base, c.bytes, MADV_HUGEPAGE);         // where "never"; already so where "always")
      c.huge = true;
    }
    return c.base + offset;
  }
  return nullptr;
}

}  // namespace

void* arena_allocate(size_t bytes) {
#if defined(NN_HOST_ARENA_OFF)
  (void)bytes;
  return nullptr;
#else
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& c : g_chunks)
    if (void* p = take_first_fit(c, bytes)) return p;
  if (!map_chunk(bytes)) return nullptr;
  return take_first_fit(g_chunks.back(), bytes);
#endif
}

bool arena_holds(const void* p) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const auto& c : g_chunks)
    if (c.contains(static_cast<const char*>(p))) return true;
  return false;
}

void arena_free(void* p, size_t bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  char* block = static_cast<char*>(p);
  for (auto& c : g_chunks) {
    if (!c.contains(block)) continue;
    size_t offset = size_t(block - c.base), length = bytes;
    auto next = c.free.lower_bound(offset);
    if (next != c.free.end() && next->first == offset + length) {  // merge with the range after
      length += next->second;
      next = c.free.erase(next);
    }
    if (next != c.free.begin()) {  // and with the one before
      auto prev = std::prev(next);
      if (prev->first + prev->second == offset) {
        offset = prev->first;
        length += prev->second;
        c.free.erase(prev);
      }
    }
    c.free.emplace(offset, length);
    return;
  }
}

}  // namespace nn
