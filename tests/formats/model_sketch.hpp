// Sketch: a one-executor ir::Model built function by function, for tests of the inference passes.
#pragma once
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::test {

const std::vector<int64_t> kToNchw = {0, 3, 1, 2}, kToNhwc = {0, 2, 3, 1};

// A one-executor model built step by step: input x, output y; every variable declares its shape.
class Sketch {
 public:
  explicit Sketch(const Shape& x) {
    model.networks.resize(1);
    net().name = "net";
    variable("x", x, "Buffer");
    ir::Executor e;
    e.name = "exec";
    e.network_name = "net";
    e.data_variable.push_back({"x", "x"});
    e.output_variable.push_back({"y", "", "y"});
    model.executors.push_back(e);
  }
  ir::Network& net() { return model.networks[0]; }
  // Adds a function writing `out` of `shape`; returns out.
  std::string add(const std::string& type, std::vector<std::string> inputs, const std::string& out,
                  const Shape& shape, const Attrs& attrs = {}) {
    ir::Function f;
    f.name = type + std::to_string(net().functions.size());
    f.type = type;
    f.inputs = std::move(inputs);
    f.outputs = {out};
    f.attrs = attrs;
    f.has_param = true;
    net().functions.push_back(f);
    variable(out, shape, "Buffer");
    return out;
  }
  std::string transpose(const std::string& in, const std::vector<int64_t>& axes, const std::string& out,
                        const Shape& shape) {
    return add("Transpose", {in}, out, shape, {{"axes", axes}});
  }
  std::string parameter(const std::string& name, const Shape& shape) {
    std::vector<float> data(size_t(std::max<int64_t>(1, shape_size(shape))));
    std::normal_distribution<float> dist(0.f, 0.5f);
    for (auto& v : data) v = dist(rng_);
    model.parameters.push_back({name, shape, data, false});
    variable(name, shape, "Parameter");
    return name;
  }
  // A 3x3 convolution with padding 1 (1x1 when k is 1) and a bias: (n, cin, h, w) in, (n, cout, h, w) out.
  std::string conv(const std::string& in, const Shape& s, int64_t cout, int64_t k, const std::string& out) {
    const std::string w = parameter(out + "/W", {cout, s[1], k, k}), b = parameter(out + "/b", {cout});
    const Attrs attrs{{"base_axis", int64_t(1)},
                      {"pad", std::vector<int64_t>{k / 2, k / 2}},
                      {"stride", std::vector<int64_t>{1, 1}},
                      {"dilation", std::vector<int64_t>{1, 1}},
                      {"group", int64_t(1)}};
    return add("Convolution", {in, w, b}, out, {s[0], cout, s[2], s[3]}, attrs);
  }
  // tf2onnx's Conv2D: NHWC (n, h, w, cin) in, (n, h, w, cout) out, the convolution between two Transposes.
  std::string nhwc_conv(const std::string& in, const Shape& s, int64_t cout, int64_t k, const std::string& out) {
    const std::string name = out + "/conv";
    const std::string nchw = transpose(in, kToNchw, name + "/in", {s[0], s[3], s[1], s[2]});
    const std::string y = conv(nchw, {s[0], s[3], s[1], s[2]}, cout, k, name + "/y");
    return transpose(y, kToNhwc, out, {s[0], s[1], s[2], cout});
  }
  size_t count(const std::string& type) {
    return size_t(std::count_if(net().functions.begin(), net().functions.end(),
                                [&](const ir::Function& f) { return f.type == type; }));
  }
  std::vector<float> input() {
    std::vector<float> x(size_t(shape_size(net().variables[0].shape)));
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    for (auto& v : x) v = dist(rng_);
    return x;
  }
  ir::Model model;

 private:
  static int64_t shape_size(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
  }
  void variable(const std::string& name, const Shape& shape, const std::string& type) {
    ir::Variable v;
    v.name = name;
    v.type = type;
    v.shape = shape;
    net().variables.push_back(v);
  }
  std::mt19937 rng_{7};
};

}  // namespace nn::test
