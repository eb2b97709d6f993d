// NdArray: a shaped buffer whose copies per (dtype, device) are synced lazily, as nnabla's SyncedArray.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nn/core/dtype.hpp"
#include "nn/core/shape.hpp"

namespace nn {

// Where a copy lives: "cpu" or a backend device such as "cuda:0".
struct ArrayKey {
  DType dtype = DType::kFloat32;
  std::string device = "cpu";
  bool operator==(const ArrayKey& o) const { return dtype == o.dtype && device == o.device; }
};

// One raw allocation on one device. Backends register allocators for their devices.
struct Buffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  std::function<void(void*)> release;
  ~Buffer() {
    if (ptr && release) release(ptr);
  }
};

// Hooks a device backend installs so arrays can move between host and device.
struct DeviceHooks {
  std::function<std::shared_ptr<Buffer>(size_t bytes)> allocate;
  std::function<void(void* dst, const void* src, size_t bytes)> to_host;    // device -> host
  std::function<void(void* dst, const void* src, size_t bytes)> from_host;  // host -> device
  std::function<void(void* dst, size_t bytes)> zero;
  // Optional: dtype conversion between two copies on the same device (e.g. float <-> half on the GPU).
  // Returns false when it cannot convert this pair; the array then converts through the host.
  std::function<bool(void* dst, DType dst_type, const void* src, DType src_type, int64_t n)> convert;
};
void register_device(const std::string& device_prefix, DeviceHooks hooks);  // prefix like "cuda"

// A host layout other than row-major float32 (oneDNN's channel-blocked formats): a copy whose "device" is the
// layout's name lives in host memory in that order, and converts to and from the plain array through these.
struct LayoutHooks {
  std::function<size_t(const Shape&)> bytes;  // storage of one array of that shape (padding included)
  std::function<void(float* plain, const void* laid, const Shape&)> to_plain;
  std::function<void(void* laid, const float* plain, const Shape&)> from_plain;
  // Optional: converts straight from the copy in another layout; false when it cannot (then via plain).
  std::function<bool(void* laid, const std::string& src_layout, const void* src, const Shape&)> from_layout;
};
void register_layout(const std::string& name, LayoutHooks hooks);

class NdArray;
using NdArrayPtr = std::shared_ptr<NdArray>;

class NdArray {
 public:
  explicit NdArray(Shape shape = {}, DType dtype = DType::kFloat32);
  static NdArrayPtr create(Shape shape = {}, DType dtype = DType::kFloat32) {
    return std::make_shared<NdArray>(std::move(shape), dtype);
  }

  const Shape& shape() const { return shape_; }
  int64_t size() const { return size_; }
  int ndim() const { return int(shape_.size()); }
  DType dtype() const { return head_.dtype; }                 // dtype of the newest copy
  const std::string& device() const { return head_.device; }  // device of the newest copy ("cpu", "cuda:0")
  // Changes the shape; the data survives when the element count is unchanged (else it is dropped).
  void reshape(const Shape& shape, bool force = false);

  // Host (or device) pointer of type T. cast: the caller will write; other copies become stale.
  // write_only skips syncing old content. get: read-only, syncs a copy if needed.
  template <class T>
  T* cast(bool write_only = false, const std::string& device = "cpu") {
    return static_cast<T*>(cast_raw(ArrayKey{DTypeOf<T>::value, device}, write_only));
  }
  template <class T>
  const T* get(const std::string& device = "cpu") {
    return static_cast<const T*>(get_raw(ArrayKey{DTypeOf<T>::value, device}));
  }
  void* cast_raw(const ArrayKey& key, bool write_only = false);
  const void* get_raw(const ArrayKey& key);

  void zero();              // lazily: the next access sees zeros
  void fill(double value);  // lazily as well
  bool allocated() const { return !copies_.empty() || lazy_fill_; }
  void clear();  // frees every copy
  size_t nbytes() const { return size_t(size_) * dtype_size(head_.dtype); }
  void copy_from(NdArray& other);  // same size; converts dtype
  // Changes whenever the content may have changed (a write access, fill, clear): equal versions of one
  // array mean equal content. Unique across arrays, so caches of derived data can key on it alone.
  uint64_t version() const { return version_; }
  NdArrayPtr copy();               // deep copy as float32 on host
  std::vector<float> to_vector();  // float32 host copy

  // Total bytes currently held by all NdArrays in the process, and the peak since reset.
  static size_t live_bytes();
  static size_t peak_bytes();
  static void reset_peak_bytes();
  // Host arrays of 16 KiB to 32 MiB come from a first-fit arena (ndarray.cpp) from the first call on, and
  // from malloc before it. Runners call it once a model is loaded and its passes ran, just before running it:
  // the heap memory loading freed goes back to the kernel then (malloc_trim), instead of lying beside the
  // arena that activations use from there on.
  static void open_arena();

 private:
  struct Copy {
    ArrayKey key;
    std::shared_ptr<Buffer> buffer;
  };
  Copy* find_copy(const ArrayKey& key);
  void touch();
  Copy& allocate_copy(const ArrayKey& key);
  void sync_into(Copy& dst);
  void sync_plain(const Copy& src, Copy& dst);  // neither copy in a layout
  void zero_copy(Copy& c);

  Shape shape_;
  int64_t size_ = 1;
  ArrayKey head_;
  std::vector<Copy> copies_;  // copies_[i] with key == head_ is authoritative; others in sync
  bool lazy_fill_ = false;
  double fill_value_ = 0.0;
  uint64_t version_ = 0;
};

}  // namespace nn
