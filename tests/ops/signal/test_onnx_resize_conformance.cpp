// ONNXResize against ONNX's own node tests (test_resize_*), read from their TensorProto .pb files when the
// libonnx test data is installed; skipped otherwise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"

namespace {

const char* kNodeTests = "/usr/share/libonnx-testdata/data/node";

// The fields of a TensorProto this test needs: dims, data_type, name and the payload as doubles.
struct Tensor {
  std::vector<int64_t> dims;
  std::string name;
  std::vector<double> values;
};

uint64_t read_varint(const std::string& b, size_t& at) {
  uint64_t v = 0;
  for (int shift = 0; at < b.size(); shift += 7) {
    const uint8_t byte = uint8_t(b[at++]);
    v |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) break;
  }
  return v;
}

// Parses the wire format of a TensorProto holding float (1) or int64 (7) data in raw_data or float_data.
Tensor read_tensor(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Tensor t;
  int64_t data_type = 0;
  std::string raw;
  for (size_t at = 0; at < b.size();) {
    const uint64_t key = read_varint(b, at);
    const int field = int(key >> 3), wire = int(key & 7);
    if (wire == 0) {
      const uint64_t v = read_varint(b, at);
      if (field == 1) t.dims.push_back(int64_t(v));
      if (field == 2) data_type = int64_t(v);
    } else if (wire == 2) {
      const size_t len = size_t(read_varint(b, at));
      const std::string bytes = b.substr(at, len);
      at += len;
      if (field == 8) t.name = bytes;
      if (field == 9) raw = bytes;
      if (field == 4) raw = bytes;  // packed float_data has the raw float layout
      if (field == 1)
        for (size_t k = 0; k < bytes.size();) t.dims.push_back(int64_t(read_varint(bytes, k)));
    } else if (wire == 5) {
      at += 4;
    } else {
      at += 8;
    }
  }
  const size_t width = data_type == 7 ? 8 : 4;
  for (size_t k = 0; k + width <= raw.size(); k += width) {
    if (data_type == 7) {
      int64_t v;
      std::memcpy(&v, raw.data() + k, 8);
      t.values.push_back(double(v));
    } else {
      float v;
      std::memcpy(&v, raw.data() + k, 4);
      t.values.push_back(double(v));
    }
  }
  return t;
}

struct NodeCase {
  const char* name;
  nn::Attrs attrs;  // the node's attributes (from the ONNX test generator); scales/sizes/roi come from files
};

}  // namespace

// Left out: test_resize_downsample_scales_{linear,cubic}_align_corners. Newer ONNX takes length_resized as
// in * scale (2.4 there) where upstream nnabla, and so this op, take the integer output size.
TEST(ONNXResize, OnnxNodeConformance) {
  if (!std::filesystem::exists(kNodeTests)) GTEST_SKIP() << "no ONNX node test data at " << kNodeTests;
  const std::string a = "coordinate_transformation_mode";
  const std::vector<NodeCase> cases = {
      {"test_resize_upsample_scales_nearest", {{"mode", std::string("nearest")}}},
      {"test_resize_downsample_scales_nearest", {{"mode", std::string("nearest")}}},
      {"test_resize_upsample_sizes_nearest", {{"mode", std::string("nearest")}}},
      {"test_resize_downsample_sizes_nearest", {{"mode", std::string("nearest")}}},
      {"test_resize_upsample_scales_linear", {{"mode", std::string("linear")}}},
      {"test_resize_downsample_scales_linear", {{"mode", std::string("linear")}}},
      {"test_resize_upsample_scales_linear_align_corners",
       {{"mode", std::string("linear")}, {a, std::string("align_corners")}}},
      {"test_resize_upsample_scales_cubic", {{"mode", std::string("cubic")}}},
      {"test_resize_downsample_scales_cubic", {{"mode", std::string("cubic")}}},
      {"test_resize_upsample_sizes_cubic", {{"mode", std::string("cubic")}}},
      {"test_resize_downsample_sizes_cubic", {{"mode", std::string("cubic")}}},
      {"test_resize_upsample_scales_cubic_align_corners",
       {{"mode", std::string("cubic")}, {a, std::string("align_corners")}}},
      {"test_resize_upsample_scales_cubic_asymmetric",
       {{"mode", std::string("cubic")}, {a, std::string("asymmetric")}}},
      {"test_resize_upsample_scales_cubic_A_n0p5_exclude_outside",
       {{"mode", std::string("cubic")}, {"cubic_coeff_a", -0.5}, {"exclude_outside", int64_t(1)}}},
      {"test_resize_downsample_scales_cubic_A_n0p5_exclude_outside",
       {{"mode", std::string("cubic")}, {"cubic_coeff_a", -0.5}, {"exclude_outside", int64_t(1)}}},
      {"test_resize_downsample_sizes_linear_pytorch_half_pixel",
       {{"mode", std::string("linear")}, {a, std::string("pytorch_half_pixel")}}},
      {"test_resize_downsample_sizes_nearest_tf_half_pixel_for_nn",
       {{"mode", std::string("nearest")}, {a, std::string("tf_half_pixel_for_nn")}}},
      {"test_resize_upsample_sizes_nearest_ceil_half_pixel",
       {{"mode", std::string("nearest")}, {a, std::string("half_pixel")}, {"nearest_mode", std::string("ceil")}}},
      {"test_resize_upsample_sizes_nearest_floor_align_corners",
       {{"mode", std::string("nearest")},
        {a, std::string("align_corners")},
        {"nearest_mode", std::string("floor")}}},
      {"test_resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric",
       {{"mode", std::string("nearest")},
        {a, std::string("asymmetric")},
        {"nearest_mode", std::string("round_prefer_ceil")}}},
      {"test_resize_tf_crop_and_resize",
       {{"mode", std::string("linear")}, {a, std::string("tf_crop_and_resize")}, {"extrapolation_value", 10.0}}},
  };
  for (const auto& c : cases) {
    const auto dir = std::filesystem::path(kNodeTests) / c.name / "test_data_set_0";
    if (!std::filesystem::exists(dir)) continue;
    SCOPED_TRACE(c.name);
    nn::Attrs attrs = c.attrs;
    Tensor x, expected;
    for (int k = 0; std::filesystem::exists(dir / ("input_" + std::to_string(k) + ".pb")); ++k) {
      Tensor t = read_tensor(dir / ("input_" + std::to_string(k) + ".pb"));
      if (k == 0) x = t;
      if (t.name == "scales" || t.name == "roi") attrs.set(t.name, t.values);
      if (t.name == "sizes") attrs.set("sizes", std::vector<int64_t>(t.values.begin(), t.values.end()));
    }
    expected = read_tensor(dir / "output_0.pb");
    auto f = nn::OpRegistry::instance().create("ONNXResize", attrs, nn::cpu_context());
    auto xv = nn::Variable::create(x.dims, false), y = nn::Variable::create();
    float* p = xv->data()->cast<float>(true);
    for (size_t i = 0; i < x.values.size(); ++i) p[i] = float(x.values[i]);
    f->setup({xv.get()}, {y.get()});
    f->forward({xv.get()}, {y.get()});
    ASSERT_EQ(y->shape(), nn::Shape(expected.dims));
    const auto got = y->data()->to_vector();
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], expected.values[i], 1e-4 + 1e-4 * std::fabs(expected.values[i])) << "element " << i;
  }
}
