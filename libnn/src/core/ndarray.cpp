// NdArray: lazily synced copies per (dtype, device), host allocation with byte accounting.
#include "nn/core/ndarray.hpp"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "core/host_arena.hpp"
#include "nn/core/error.hpp"
#include "nn/core/half.hpp"

namespace nn {
namespace {

std::atomic<size_t> g_live{0};
std::atomic<size_t> g_peak{0};
std::atomic<uint64_t> g_version{0};

void note_alloc(size_t bytes) {
  size_t now = g_live.fetch_add(bytes) + bytes;
  size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}

// Graphs free and reallocate the same activation sizes every iteration. glibc's defaults give blocks above
// its (adaptive) mmap threshold back to the kernel and trim the heap top, so each iteration pays page faults
// again: keep blocks up to 32 MiB (glibc's maximum threshold) in the heap and trim only above 1 GiB free.
void tune_malloc_once() {
  static const bool tuned = [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    return true;
  }();
  (void)tuned;
}

// Blocks above that threshold still go back to the kernel when freed: an inference that frees each
// activation after its last reader (and so needs a fraction of the memory) would fault its largest arrays in
// again every iteration. Freed blocks of at least kLargeBlock bytes wait here, up to kLargeCacheBytes in all,
// for an allocation of the same size.
constexpr size_t kLargeBlock = size_t(32) << 20, kLargeCacheBytes = size_t(1) << 30;
std::mutex g_large_mutex;
std::multimap<size_t, void*> g_large_free;
size_t g_large_cached = 0;

// Blocks from 16 KiB up to kLargeBlock come from the first-fit arena (host_arena.hpp), which keeps the
// activations an inference frees and allocates again packed in memory the previous functions touched (on huge
// pages once a mapping is 8 MiB full). Against glibc's heap, medians of 4-6 alternating runs: MobileNetV2 b1 1.852
// -> 1.769 ms, EfficientNet b1 3.193 -> 3.112 (6 of 6), MobileNetV2 b32 59.1 -> 58.4 (5 of 5), squeezenet b1 +0.8
// %; training one epoch, LeNet 1.322 -> 1.212 s and MLP 0.315 -> 0.303. (Keeping every activation instead cost
// MobileNetV2 b1 31 % on one thread, and a pool of exact-size blocks 13 %: how recently the memory was
// touched is what counts.) From 16 KiB rather than 64 (squeeze-excite's small arrays): EfficientNet b1 3.451 ->
// 3.403 ms (5 of 6), LeNet training 1.378 -> 1.277 s, MLP the same; from 4 KiB LeNet lost again. Smaller
// blocks stay on malloc's thread caches.
constexpr size_t kArenaMinBytes = size_t(16) << 10;
// Opened by NdArray::open_arena once loading is done: loading's arrays in the arena, and what it freed
// into malloc's heap beside it, made MobileNetV2 b1's peak 5 MB larger (75.3 MB against 70.0 on malloc alone).
std::atomic<bool> g_arena_open{false};

void* take_large(size_t rounded) {
  if (rounded < kLargeBlock) return nullptr;
  std::lock_guard<std::mutex> lock(g_large_mutex);
  auto it = g_large_free.find(rounded);
  if (it == g_large_free.end()) return nullptr;
  void* p = it->second;
  g_large_free.erase(it);
  g_large_cached -= rounded;
  return p;
}

void give_back(void* p, size_t rounded) {
  if (rounded >= kLargeBlock) {
    std::lock_guard<std::mutex> lock(g_large_mutex);
    if (g_large_cached + rounded <= kLargeCacheBytes) {
      g_large_free.emplace(rounded, p);
      g_large_cached += rounded;
      return;
    }
  }
  std::free(p);
}

std::shared_ptr<Buffer> host_allocate(size_t bytes) {
  tune_malloc_once();
  auto b = std::make_shared<Buffer>();
  const size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
  if (rounded >= kArenaMinBytes && rounded < kLargeBlock && g_arena_open.load(std::memory_order_relaxed))
    b->ptr = arena_allocate(rounded);
  const bool in_arena = b->ptr != nullptr;
  if (!b->ptr) b->ptr = take_large(rounded);
  if (!b->ptr) b->ptr = std::aligned_alloc(64, rounded);
  NN_CHECK(b->ptr) << "out of memory allocating " << bytes << " bytes";
  b->bytes = bytes;
  note_alloc(bytes);
  b->release = [bytes, rounded, in_arena](void* p) {
    if (in_arena)
      arena_free(p, rounded);
    else
      give_back(p, rounded);
    g_live.fetch_sub(bytes);
  };
  return b;
}

std::map<std::string, DeviceHooks>& device_table() {
  static std::map<std::string, DeviceHooks> t;
  return t;
}

std::map<std::string, LayoutHooks>& layout_table() {
  static std::map<std::string, LayoutHooks> t;
  return t;
}

// The hooks of a host layout, or null for "cpu" and device copies.
const LayoutHooks* layout_for(const std::string& device) {
  if (device == "cpu" || layout_table().empty()) return nullptr;
  auto it = layout_table().find(device);
  return it == layout_table().end() ? nullptr : &it->second;
}

const DeviceHooks& hooks_for(const std::string& device) {
  auto prefix = device.substr(0, device.find(':'));
  auto it = device_table().find(prefix);
  NN_CHECK(it != device_table().end()) << "no backend is registered for device '" << device << "'";
  return it->second;
}

template <class D, class S>
void convert_loop(D* d, const S* s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = D(s[i]);
}

double read_as_double(const void* p, DType t, int64_t i) {
  switch (t) {
    case DType::kFloat32: return static_cast<const float*>(p)[i];
    case DType::kFloat16: return half_to_float(static_cast<const uint16_t*>(p)[i]);
    case DType::kFloat64: return static_cast<const double*>(p)[i];
    case DType::kInt32: return static_cast<const int32_t*>(p)[i];
    case DType::kInt64: return double(static_cast<const int64_t*>(p)[i]);
    case DType::kUInt8: return static_cast<const uint8_t*>(p)[i];
    case DType::kInt8: return static_cast<const int8_t*>(p)[i];
    case DType::kBool: return static_cast<const bool*>(p)[i];
  }
  return 0;
}

void write_from_double(void* p, DType t, int64_t i, double v) {
  switch (t) {
    case DType::kFloat32: static_cast<float*>(p)[i] = float(v); break;
    case DType::kFloat16: static_cast<uint16_t*>(p)[i] = float_to_half(float(v)); break;
    case DType::kFloat64: static_cast<double*>(p)[i] = v; break;
    case DType::kInt32: static_cast<int32_t*>(p)[i] = int32_t(v); break;
    case DType::kInt64: static_cast<int64_t*>(p)[i] = int64_t(v); break;
    case DType::kUInt8: static_cast<uint8_t*>(p)[i] = uint8_t(v); break;
    case DType::kInt8: static_cast<int8_t*>(p)[i] = int8_t(v); break;
    case DType::kBool: static_cast<bool*>(p)[i] = v != 0; break;
  }
}

// Host dtype conversion, with fast paths for the common pairs.
void convert_host(void* dst, DType dt, const void* src, DType st, int64_t n) {
  if (dt == st) {
    std::memcpy(dst, src, size_t(n) * dtype_size(dt));
  } else if (dt == DType::kFloat32 && st == DType::kInt32) {
    convert_loop(static_cast<float*>(dst), static_cast<const int32_t*>(src), n);
  } else if (dt == DType::kFloat32 && st == DType::kUInt8) {
    convert_loop(static_cast<float*>(dst), static_cast<const uint8_t*>(src), n);
  } else if (dt == DType::kInt32 && st == DType::kFloat32) {
    convert_loop(static_cast<int32_t*>(dst), static_cast<const float*>(src), n);
  } else {
    for (int64_t i = 0; i < n; ++i) write_from_double(dst, dt, i, read_as_double(src, st, i));
  }
}

void fill_host(void* p, DType t, int64_t n, double v) {
  if (v == 0.0) {
    std::memset(p, 0, size_t(n) * dtype_size(t));
  } else if (t == DType::kFloat32) {
    std::fill_n(static_cast<float*>(p), n, float(v));
  } else {
    for (int64_t i = 0; i < n; ++i) write_from_double(p, t, i, v);
  }
}

}  // namespace

void register_device(const std::string& device_prefix, DeviceHooks hooks) {
  device_table()[device_prefix] = std::move(hooks);
}

void register_layout(const std::string& name, LayoutHooks hooks) { layout_table()[name] = std::move(hooks); }

void NdArray::touch() { version_ = ++g_version; }

NdArray::NdArray(Shape shape, DType dtype) : shape_(std::move(shape)), version_(++g_version) {
  check_shape(shape_, "array");
  size_ = shape_size(shape_);
  head_.dtype = dtype;
}

void NdArray::reshape(const Shape& shape, bool force) {
  if (shape == shape_) return;
  check_shape(shape, "array");
  int64_t n = shape_size(shape);
  if (n != size_) {
    NN_INTERNAL_CHECK(force) << "reshape " << to_string(shape_) << " to " << to_string(shape);
    clear();
  }
  // A layout's order depends on the shape: the content moves to a plain copy before the layouts go.
  if (layout_for(head_.device)) {
    const ArrayKey plain{DType::kFloat32, "cpu"};
    get_raw(plain);
    head_ = plain;
  }
  copies_.erase(std::remove_if(copies_.begin(), copies_.end(),
                               [](const Copy& c) { return layout_for(c.key.device) != nullptr; }),
                copies_.end());
  shape_ = shape;
  size_ = n;
}

NdArray::Copy* NdArray::find_copy(const ArrayKey& key) {
  for (auto& c : copies_)
    if (c.key == key) return &c;
  return nullptr;
}

NdArray::Copy& NdArray::allocate_copy(const ArrayKey& key) {
  size_t bytes = size_t(size_) * dtype_size(key.dtype);
  std::shared_ptr<Buffer> buffer;
  if (key.device == "cpu") {
    buffer = host_allocate(bytes);
  } else if (const LayoutHooks* layout = layout_for(key.device)) {
    NN_INTERNAL_CHECK(key.dtype == DType::kFloat32) << "layout '" << key.device << "' holds float32 only";
    buffer = host_allocate(layout->bytes(shape_));
  } else {
    buffer = hooks_for(key.device).allocate(bytes);
  }
  Copy c{key, std::move(buffer)};
  copies_.push_back(std::move(c));
  return copies_.back();
}

void NdArray::zero_copy(Copy& c) {
  if (c.key.device == "cpu")
    fill_host(c.buffer->ptr, c.key.dtype, size_, 0.0);
  else if (layout_for(c.key.device))
    std::memset(c.buffer->ptr, 0, c.buffer->bytes);
  else
    hooks_for(c.key.device).zero(c.buffer->ptr, c.buffer->bytes);
}

void NdArray::sync_into(Copy& dst) {
  Copy* src = find_copy(head_);
  NN_INTERNAL_CHECK(src != nullptr) << "array has no authoritative copy";
  const LayoutHooks* src_layout = layout_for(src->key.device);
  const LayoutHooks* dst_layout = layout_for(dst.key.device);
  if (!src_layout && !dst_layout) return sync_plain(*src, dst);
  if (src_layout && dst_layout && dst_layout->from_layout &&
      dst_layout->from_layout(dst.buffer->ptr, src->key.device, src->buffer->ptr, shape_))
    return;
  // Otherwise through a plain float32 host array.
  const ArrayKey plain_key{DType::kFloat32, "cpu"};
  Copy plain{plain_key, nullptr};
  if (src_layout) {
    if (dst.key == plain_key)
      return src_layout->to_plain(static_cast<float*>(dst.buffer->ptr), src->buffer->ptr, shape_);
    plain.buffer = host_allocate(size_t(size_) * sizeof(float));
    src_layout->to_plain(static_cast<float*>(plain.buffer->ptr), src->buffer->ptr, shape_);
  } else if (src->key == plain_key) {
    plain.buffer = src->buffer;
  } else {
    plain.buffer = host_allocate(size_t(size_) * sizeof(float));
    sync_plain(*src, plain);
  }
  if (dst_layout)
    return dst_layout->from_plain(dst.buffer->ptr, static_cast<const float*>(plain.buffer->ptr), shape_);
  sync_plain(plain, dst);
}

void NdArray::sync_plain(const Copy& src_copy, Copy& dst) {
  const Copy* src = &src_copy;
  const bool src_host = src->key.device == "cpu";
  const bool dst_host = dst.key.device == "cpu";
  if (src_host && dst_host) {
    convert_host(dst.buffer->ptr, dst.key.dtype, src->buffer->ptr, src->key.dtype, size_);
    return;
  }
  if (!src_host && src->key.device == dst.key.device) {
    const DeviceHooks& hooks = hooks_for(dst.key.device);
    if (hooks.convert && hooks.convert(dst.buffer->ptr, dst.key.dtype, src->buffer->ptr, src->key.dtype, size_))
      return;
  }
  // Go through a host copy in the source dtype, then convert, then upload.
  std::shared_ptr<Buffer> host_src = src->buffer;
  if (!src_host) {
    host_src = host_allocate(size_t(size_) * dtype_size(src->key.dtype));
    hooks_for(src->key.device).to_host(host_src->ptr, src->buffer->ptr, host_src->bytes);
  }
  if (dst_host) {
    convert_host(dst.buffer->ptr, dst.key.dtype, host_src->ptr, src->key.dtype, size_);
    return;
  }
  std::shared_ptr<Buffer> host_dst = host_src;
  if (dst.key.dtype != src->key.dtype) {
    host_dst = host_allocate(size_t(size_) * dtype_size(dst.key.dtype));
    convert_host(host_dst->ptr, dst.key.dtype, host_src->ptr, src->key.dtype, size_);
  }
  hooks_for(dst.key.device).from_host(dst.buffer->ptr, host_dst->ptr, dst.buffer->bytes);
}

const void* NdArray::get_raw(const ArrayKey& key) {
  if (lazy_fill_) return cast_raw(key, false);
  if (Copy* c = find_copy(key)) return c->buffer->ptr;
  bool had_data = !copies_.empty();
  // Keep a pointer stable: allocate_copy may reallocate copies_, so sync after allocation by key.
  allocate_copy(key);
  Copy* c = find_copy(key);
  if (had_data) {
    sync_into(*c);
  } else {
    zero_copy(*c);
    head_ = key;
  }
  return c->buffer->ptr;
}

void* NdArray::cast_raw(const ArrayKey& key, bool write_only) {
  touch();
  if (lazy_fill_) {
    copies_.clear();
    allocate_copy(key);
    Copy* c = find_copy(key);
    if (const LayoutHooks* layout = layout_for(key.device)) {
      auto host = host_allocate(size_t(size_) * sizeof(float));
      fill_host(host->ptr, DType::kFloat32, size_, fill_value_);
      layout->from_plain(c->buffer->ptr, static_cast<const float*>(host->ptr), shape_);
    } else if (key.device == "cpu") {
      fill_host(c->buffer->ptr, key.dtype, size_, fill_value_);
    } else if (fill_value_ == 0.0) {
      hooks_for(key.device).zero(c->buffer->ptr, c->buffer->bytes);
    } else {  // fill a host copy and upload it
      auto host = host_allocate(c->buffer->bytes);
      fill_host(host->ptr, key.dtype, size_, fill_value_);
      hooks_for(key.device).from_host(c->buffer->ptr, host->ptr, c->buffer->bytes);
    }
    lazy_fill_ = false;
    head_ = key;
    return c->buffer->ptr;
  }
  if (!find_copy(key)) {
    if (write_only || copies_.empty()) {
      allocate_copy(key);
      if (!write_only) zero_copy(*find_copy(key));
    } else {
      get_raw(key);
    }
  }
  // Drop every other copy: this one becomes the only, authoritative one.
  copies_.erase(std::remove_if(copies_.begin(), copies_.end(), [&](const Copy& c) { return !(c.key == key); }),
                copies_.end());
  head_ = key;
  return copies_.front().buffer->ptr;
}

void NdArray::zero() { fill(0.0); }

void NdArray::fill(double value) {
  touch();
  copies_.clear();
  lazy_fill_ = true;
  fill_value_ = value;
}

void NdArray::clear() {
  touch();
  copies_.clear();
  lazy_fill_ = false;
}

void NdArray::copy_from(NdArray& other) {
  NN_INTERNAL_CHECK(other.size() == size_) << "copy_from size " << other.size() << " vs " << size_;
  const void* src = other.get_raw(ArrayKey{other.dtype(), "cpu"});
  DType src_type = other.dtype();
  void* dst = cast_raw(ArrayKey{head_.dtype, "cpu"}, true);
  convert_host(dst, head_.dtype, src, src_type, size_);
}

NdArrayPtr NdArray::copy() {
  auto r = NdArray::create(shape_, DType::kFloat32);
  std::memcpy(r->cast<float>(true), get<float>(), size_t(size_) * sizeof(float));
  return r;
}

std::vector<float> NdArray::to_vector() {
  const float* p = get<float>();
  return std::vector<float>(p, p + size_);
}

size_t NdArray::live_bytes() { return g_live.load(); }
size_t NdArray::peak_bytes() { return g_peak.load(); }
void NdArray::reset_peak_bytes() { g_peak.store(g_live.load()); }

void NdArray::open_arena() {
  if (g_arena_open.load(std::memory_order_relaxed) || g_arena_open.exchange(true)) return;
  malloc_trim(0);
}

}  // namespace nn
