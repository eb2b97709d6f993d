// The oneDNN layouts' NdArray hooks: size (with the channel padding), and oneDNN reorders to and from plain and
// between the layouts.
#include "ops/detail/dnnl_layout.hpp"

#include <omp.h>

#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "nn/core/error.hpp"
#include "nn/core/ndarray.hpp"
#include "ops/detail/interleave.hpp"

namespace nn::ops {
namespace {
using dnnl::memory;

memory::dims dims_of(const Shape& shape) {
  NN_INTERNAL_CHECK(shape.size() >= 3 && shape.size() <= 5) << "oneDNN layout for shape " << to_string(shape);
  return memory::dims(shape.begin(), shape.end());
}

// Reorders one shape from layout `from` to layout `to` ("" = the plain order), made once per (from, to, shape)
// and team size: oneDNN's reorders keep the thread count they were made with, and one made for the team would
// wake its workers on every call of a network run on the calling thread (runtime/session/calling_thread.hpp).
void reorder(const std::string& from, const std::string& to, const Shape& shape, const void* src, void* dst) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, std::string, Shape, int>, dnnl::reorder> made;
  const memory::dims dims = dims_of(shape);
  auto desc_of = [&](const std::string& layout) {
    return layout.empty() ? dnnl_plain_desc(dims) : dnnl_layout_desc(layout, dims);
  };
  const memory::desc from_md = desc_of(from), to_md = desc_of(to);
  dnnl::reorder r;
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(from, to, shape, omp_in_parallel() ? 1 : omp_get_max_threads());
    auto it = made.find(key);
    if (it == made.end())
      it = made.emplace(key, dnnl::reorder(dnnl::reorder::primitive_desc(dnnl_cpu_engine(), from_md,
                                                                         dnnl_cpu_engine(), to_md)))
               .first;
    r = it->second;
  }
  memory src_mem(from_md, dnnl_cpu_engine(), const_cast<void*>(src)), dst_mem(to_md, dnnl_cpu_engine(), dst);
  dnnl::stream stream(dnnl_cpu_engine());
  r.execute(stream, src_mem, dst_mem);
  stream.wait();
}

bool is_dnnl_layout(const std::string& name) {
  for (const char* layout : kDnnlLayouts)
    if (name == layout) return true;
  return false;
}
}  // namespace

const dnnl::engine& dnnl_cpu_engine() {
  static const dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  return eng;
}

memory::desc dnnl_plain_desc(const memory::dims& dims) {
  using Tag = memory::format_tag;
  static constexpr Tag kTags[] = {Tag::a, Tag::ab, Tag::abc, Tag::abcd, Tag::abcde, Tag::abcdef};
  NN_INTERNAL_CHECK(!dims.empty() && dims.size() <= 6) << "oneDNN plain array of " << dims.size() << " dims";
  return memory::desc(dims, memory::data_type::f32, kTags[dims.size() - 1]);
}

memory::desc dnnl_layout_desc(const std::string& layout, const memory::dims& dims) {
  using Tag = memory::format_tag;
  const size_t r = dims.size();
  Tag tag = Tag::undef;
  if (layout == kDnnlLayouts[0])
    tag = r == 3 ? Tag::aBc16b : r == 4 ? Tag::aBcd16b : r == 5 ? Tag::aBcde16b : tag;
  else if (layout == kDnnlLayouts[1])
    tag = r == 3 ? Tag::acb : r == 4 ? Tag::acdb : r == 5 ? Tag::acdeb : tag;
  NN_INTERNAL_CHECK(tag != Tag::undef) << "oneDNN layout '" << layout << "' for " << r << " dims";
  return memory::desc(dims, memory::data_type::f32, tag);
}

std::string dnnl_layout_of(const memory::desc& md) {
  const memory::dims dims = md.dims();
  if (dims.size() < 3 || dims.size() > 5 || md.data_type() != memory::data_type::f32) return "";
  for (const char* layout : kDnnlLayouts)
    if (md == dnnl_layout_desc(layout, dims)) return layout;
  return "";
}

void register_dnnl_layouts() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* name : kDnnlLayouts) {
      const std::string layout = name;
      LayoutHooks hooks;
      hooks.bytes = [layout](const Shape& shape) { return dnnl_layout_desc(layout, dims_of(shape)).get_size(); };
      hooks.to_plain = [layout](float* plain, const void* laid, const Shape& shape) {
        reorder(layout, "", shape, laid, plain);
      };
      hooks.from_plain = [layout](void* laid, const float* plain, const Shape& shape) {
        if (layout == kDnnlLayouts[1] && shape.size() == 4 && shape[1] == 3)  // an RGB input
          return interleave_three_planes(plain, static_cast<float*>(laid), shape[0], shape[2] * shape[3]);
        reorder("", layout, shape, plain, laid);
      };
      // One reorder between two oneDNN layouts (a Winograd layer's dnnl16 output read by a channels-last
      // layer), where going through the plain order took two.
      hooks.from_layout = [layout](void* laid, const std::string& from, const void* src, const Shape& shape) {
        if (!is_dnnl_layout(from)) return false;
        reorder(from, layout, shape, src, laid);
        return true;
      };
      register_layout(layout, std::move(hooks));
    }
  });
}

}  // namespace nn::ops
