// NNB -> ir::Model: variables v<id>, decoded parameters, functions by id, fixed-point rounding steps.
#include "formats/nnb/nnb_to_ir.hpp"

#include <cmath>
#include <cstring>
#include <set>

#include "formats/nnb/nnb_args.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::nnb {

namespace {

std::string var_name(uint32_t id) { return "v" + std::to_string(id); }

std::vector<float> decode_data(const NnbVariable& v) {
  const int64_t count = element_count(v.shape);
  std::vector<float> x(size_t(std::max<int64_t>(count, 0)), 0.0f);
  const double scale = std::ldexp(1.0, -v.fp_pos);
  for (size_t k = 0; k < x.size(); ++k) {
    switch (v.type) {
      case DataType::kFloat:
        if ((k + 1) * 4 <= v.data.size()) std::memcpy(&x[k], v.data.data() + 4 * k, 4);
        break;
      case DataType::kInt16:
        if ((k + 1) * 2 <= v.data.size()) {
          int16_t s;
          std::memcpy(&s, v.data.data() + 2 * k, 2);
          x[k] = float(s * scale);
        }
        break;
      case DataType::kInt8:
        if (k < v.data.size()) x[k] = float(int8_t(v.data[k]) * scale);
        break;
      case DataType::kSign:
        if (k / 8 < v.data.size()) x[k] = (uint8_t(v.data[k / 8]) >> (k % 8)) & 1 ? 1.0f : -1.0f;
        break;
    }
  }
  return x;
}

std::vector<float> untranspose(const std::vector<float>& x, int64_t rows) {
  if (rows <= 0 || x.empty()) return x;
  const int64_t cols = int64_t(x.size()) / rows;  // stored (cols, rows)
  std::vector<float> t(x.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) t[size_t(r * cols + c)] = x[size_t(c * rows + r)];
  return t;
}

// nnabla-c-runtime reads an Affine weight that the network computes (no data of its own) as it reads stored
// ones: output-major, (O, I) with O the output's size from base_axis on. Functions in front of `fn` bring it to
// nnabla's (I, O...) layout, so that nncli runs an NNB as the c-runtime does.
void input_major_weight(nn::ir::Network& net, nn::ir::Function& fn, size_t k, const std::string& output) {
  const nn::ir::Variable weight = *net.find_variable(fn.inputs[k]);
  const Shape out = net.find_variable(output)->shape;
  const int64_t base_axis = fn.attrs.get_int("base_axis", 1);
  NN_CHECK(base_axis >= 0 && base_axis < int64_t(out.size()))
      << fn.name << ": base_axis " << base_axis << " does not fit output " << to_string(out);
  const Shape out_dims(out.begin() + base_axis, out.end());
  const int64_t rows = shape_size(out_dims), total = shape_size(weight.shape);
  NN_CHECK(rows > 0 && total % rows == 0)
      << fn.name << ": weight " << to_string(weight.shape) << " does not hold output-major rows of " << rows;
  const auto add = [&](const std::string& type, const std::string& in, const Shape& shape, const char* attr,
                       std::vector<int64_t> value) {
    const std::string name = fn.name + "_weight_" + type;
    net.variables.push_back({name, "Buffer", {}, shape, {}});
    nn::ir::Function f{name, type, {}, {}, {in}, {name}, {}, {}, true, {}, {}};
    f.attrs.set(attr, std::move(value));
    if (type == "Reshape") f.attrs.set("inplace", false);
    net.functions.push_back(std::move(f));
    return name;
  };
  std::string w = add("Reshape", weight.name, {rows, total / rows}, "shape", {rows, total / rows});
  w = add("Transpose", w, {total / rows, rows}, "axes", {1, 0});
  Shape input_major{total / rows};
  input_major.insert(input_major.end(), out_dims.begin(), out_dims.end());
  if (input_major.size() != 2) w = add("Reshape", w, input_major, "shape", input_major);
  fn.inputs[k] = w;
}

}  // namespace

nn::ir::Model nnb_to_model(const NnbNetwork& n) {
  nn::ir::Model m;
  nn::ir::Network net;
  net.name = "nnb";
  net.batch_size = 1;
  std::vector<std::string> unknown;
  for (const auto& f : n.functions)
    if (!function_by_id(f.type)) unknown.push_back(std::to_string(f.type));
  if (!unknown.empty()) {
    std::string list;
    for (const auto& u : unknown) list += (list.empty() ? "" : ", ") + u;
    NN_FAIL(ErrorCode::kUnsupported) << "NNB function id(s) " << list << " are unknown to nncli";
  }
  std::set<uint32_t> transposed;
  std::vector<std::vector<float>> data(n.variables.size());
  for (size_t v = 0; v < n.variables.size(); ++v)
    if (n.variables[v].has_data()) data[v] = decode_data(n.variables[v]);
  for (const auto& f : n.functions) {
    const std::string& type = function_by_id(f.type)->type;
    for (size_t k : transposed_inputs(type))
      if (k < f.inputs.size() && n.variables[f.inputs[k]].has_data() && transposed.insert(f.inputs[k]).second)
        data[f.inputs[k]] = untranspose(
            data[f.inputs[k]], n.variables[f.inputs[k]].shape.empty() ? 0 : n.variables[f.inputs[k]].shape[0]);
  }
  for (size_t v = 0; v < n.variables.size(); ++v) {
    const NnbVariable& nv = n.variables[v];
    nn::ir::Variable var;
    var.name = var_name(uint32_t(v));
    for (int32_t d : nv.shape) var.shape.push_back(d);
    if (nv.has_data()) {
      var.type = "Parameter";
      m.parameters.push_back({var.name, var.shape, data[v], false});
    }
    net.variables.push_back(std::move(var));
  }
  for (size_t k = 0; k < n.functions.size(); ++k) {
    const NnbFunction& f = n.functions[k];
    nn::ir::Function fn;
    fn.type = function_by_id(f.type)->type;
    fn.name = fn.type + "_" + std::to_string(k);
    for (uint32_t i : f.inputs) fn.inputs.push_back(var_name(i));
    fn.has_param = true;
    fn.attrs = decode_arguments(fn.type, f.args);
    if (fn.type == "ReLU" || fn.type == "LeakyReLU" || fn.type == "Reshape") fn.attrs.set("inplace", false);
    for (size_t i : transposed_inputs(fn.type))
      if (i < f.inputs.size() && !f.outputs.empty() && !n.variables[f.inputs[i]].has_data())
        input_major_weight(net, fn, i, var_name(f.outputs[0]));
    std::vector<nn::ir::Function> rounding;
    for (uint32_t o : f.outputs) {
      const NnbVariable& ov = n.variables[o];
      if (ov.type != DataType::kInt16 && ov.type != DataType::kInt8) {
        fn.outputs.push_back(var_name(o));
        continue;
      }
      // The function writes a float temporary; FixedPointQuantize stores it as the c-runtime does.
      const std::string raw = var_name(o) + "_float";
      net.variables.push_back({raw, "Buffer", {}, net.variables[o].shape, {}});
      fn.outputs.push_back(raw);
      nn::ir::Function q;
      q.type = "FixedPointQuantize";
      q.name = fn.name + "_store_" + var_name(o);
      q.inputs = {raw};
      q.outputs = {var_name(o)};
      q.has_param = true;
      const int bits = ov.type == DataType::kInt16 ? 16 : 8;
      q.attrs.set("sign", true);
      q.attrs.set("n", int64_t(bits));
      q.attrs.set("delta", std::ldexp(1.0, -ov.fp_pos));
      q.attrs.set("ste_fine_grained", true);
      rounding.push_back(std::move(q));
    }
    net.functions.push_back(std::move(fn));
    for (auto& q : rounding) net.functions.push_back(std::move(q));
  }
  nn::ir::Executor e;
  e.name = "nnb";
  e.network_name = net.name;
  for (uint32_t i : n.inputs) e.data_variable.push_back({var_name(i), var_name(i)});
  for (uint32_t o : n.outputs) e.output_variable.push_back({var_name(o), "", var_name(o)});
  m.networks.push_back(std::move(net));
  m.executors.push_back(std::move(e));
  return m;
}

}  // namespace nn::formats::nnb
