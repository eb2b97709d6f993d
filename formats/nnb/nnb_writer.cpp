// NNB export: ir::Model -> NnbNetwork (variables, shared buffers, encoded parameters, function records).
#include "formats/nnb/nnb_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "formats/nnb/nnb_args.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "formats/passes/export_target.hpp"
#include "nn/core/error.hpp"
#include "nn/ir/function_label.hpp"
#include "nn/core/log.hpp"

namespace nn::formats::nnb {

std::vector<int64_t> plan_buffers(const std::vector<int64_t>& sizes, const std::vector<std::vector<int>>& live,
                                  std::vector<int>& assignment) {
  size_t width = 0;
  for (const auto& l : live) width = std::max(width, l.size());
  std::vector<int64_t> actual(width, -1);
  for (const auto& l : live) {
    std::vector<int64_t> s;
    for (int b : l) s.push_back(sizes[size_t(b)]);
    s.resize(width, -1);
    std::sort(s.begin(), s.end());
    for (size_t i = 0; i < width; ++i) actual[i] = std::max(actual[i], s[i]);
  }
  assignment.assign(sizes.size(), -1);
  for (const auto& l : live) {
    std::vector<bool> used(width, false);
    for (int b : l)
      if (assignment[size_t(b)] >= 0) used[size_t(assignment[size_t(b)])] = true;
    for (int b : l) {
      if (assignment[size_t(b)] >= 0) continue;
      int chosen = -1;
      for (size_t i = 0; i < width && chosen < 0; ++i)
        if (!used[i] && actual[i] >= sizes[size_t(b)]) chosen = int(i);
      for (size_t i = 0; i < width && chosen < 0; ++i)
        if (!used[i]) {
          chosen = int(i);
          actual[i] = sizes[size_t(b)];
        }
      NN_INTERNAL_CHECK(chosen >= 0) << "no free buffer";
      assignment[size_t(b)] = chosen;
      used[size_t(chosen)] = true;
    }
  }
  return actual;
}

void check_function_table(const nn::ir::Network& network, int level, const std::string& format) {
  const auto& table = function_table(level);
  convert_each_function(network, format, [&](const nn::ir::Function& f) {
    NN_CHECK_CODE(table.count(f.type), ErrorCode::kUnsupported)
        << "not supported in current API Level(=" << level << ")";
  });
}

namespace {

// Fractional bits for data without an explicit fp_pos (docs/nnb_format.md#data-blocks).
int derive_fp_pos(const std::vector<float>& x, int bits) {
  float a = 0, largest = 0;
  for (float v : x)
    if (std::fabs(v) > a) a = std::fabs(v), largest = v;
  int ib = 1;
  if (a >= 1) {
    const double l = std::log2(double(a));
    ib = (l == std::floor(l) && largest > 0) ? int(l) + 2 : int(std::ceil(l)) + 1;
  }
  return bits - ib;
}

std::string encode_data(const std::vector<float>& x, DataType type, int& fp_pos, bool explicit_fp,
                        const std::string& name) {
  std::string out;
  if (type == DataType::kFloat) {
    out.resize(x.size() * 4);
    if (!x.empty()) std::memcpy(out.data(), x.data(), out.size());
    return out;
  }
  if (type == DataType::kSign) {
    NN_CHECK(x.size() % 8 == 0) << "variable '" << name << "': SIGN data needs a multiple of 8 elements, has "
                                << x.size();
    out.assign(x.size() / 8, '\0');
    for (size_t k = 0; k < x.size(); ++k) {
      const uint8_t bit = uint8_t(int(x[k])) == 1 ? 1 : 0;
      out[k / 8] = char(uint8_t(out[k / 8]) | (bit << (k % 8)));
    }
    return out;
  }
  const int bits = type == DataType::kInt16 ? 16 : 8;
  if (!explicit_fp) fp_pos = derive_fp_pos(x, bits);
  const double scale = std::ldexp(1.0, fp_pos), lo = -std::ldexp(1.0, bits - 1), hi = -lo - 1;
  for (float v : x) {
    const double q = std::clamp(std::nearbyint(double(v) * scale), lo, hi);
    if (bits == 16) {
      const int16_t s = int16_t(q);
      out.append(reinterpret_cast<const char*>(&s), 2);
    } else {
      out.push_back(char(int8_t(q)));
    }
  }
  return out;
}

std::vector<float> transpose_2d(const std::vector<float>& x, int64_t rows) {
  if (rows <= 0 || x.empty()) return x;
  const int64_t cols = int64_t(x.size()) / rows;
  std::vector<float> t(x.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) t[size_t(c * rows + r)] = x[size_t(r * cols + c)];
  return t;
}

// nnabla-c-runtime reads the weights of Affine and the binary affines output-major, whatever their shape.
// Parameter data is stored so (transposed below); a weight the network computes (a Reshape of an overridable
// ONNX initializer) gets a Transpose into that layout in front of its function. The weight is read as
// (shape[0], rest), as the parameter data is.
void transpose_computed_weights(nn::ir::Network& net) {
  std::vector<nn::ir::Function> functions;
  std::map<std::string, std::string> output_major;
  for (nn::ir::Function f : net.functions) {
    for (size_t k : transposed_inputs(f.type)) {
      const nn::ir::Variable* v = k < f.inputs.size() ? net.find_variable(f.inputs[k]) : nullptr;
      if (!v || v->type == "Parameter") continue;
      auto [it, fresh] = output_major.emplace(v->name, v->name + "_output_major");
      if (fresh) {
        const Shape shape = v->shape;
        NN_CHECK(!shape.empty() && shape[0] > 0 && shape_size(shape) > 0)
            << nn::ir::label(f) << ": weight '" << v->name << "' has no fixed shape " << to_string(shape);
        const int64_t rows = shape[0], cols = shape_size(shape) / rows;
        std::string source = v->name;
        if (shape.size() != 2) {
          const std::string flat = v->name + "_2d";
          net.variables.push_back({flat, "Buffer", {}, {rows, cols}, {}});
          functions.push_back({flat, "Reshape", {}, {}, {source}, {flat}, {}, {}, true, {}, {}});
          functions.back().attrs.set("shape", std::vector<int64_t>{rows, cols});
          functions.back().attrs.set("inplace", true);
          source = flat;
        }
        net.variables.push_back({it->second, "Buffer", {}, {cols, rows}, {}});
        functions.push_back({it->second, "Transpose", {}, {}, {source}, {it->second}, {}, {}, true, {}, {}});
        functions.back().attrs.set("axes", std::vector<int64_t>{1, 0});
      }
      f.inputs[k] = it->second;
    }
    functions.push_back(std::move(f));
  }
  net.functions = std::move(functions);
}

}  // namespace

NnbNetwork build_nnb(const nn::ir::Model& model, const NnbExportOptions& opt, MemoryPlan* plan) {
  ExportTargetOptions target_options;
  target_options.format = "NNB";
  target_options.unnamed = UnnamedExecutor::kFirst;
  target_options.fill_shapes = false;
  target_options.batch_size = opt.batch_size;
  ExportTarget target = export_target(model, target_options);
  const nn::ir::Executor& executor = *target.executor;
  transpose_computed_weights(target.network);
  const nn::ir::Network* net = &target.network;
  NN_LOG_INFO << "Using network [" << net->name << "].";
  NnbNetwork n;
  n.version = opt.version;
  const int newest = newest_api_level();
  n.api_level = uint32_t(opt.api_level != -1 && opt.api_level <= newest ? opt.api_level : newest);
  const int level = std::max(int(n.api_level), 1);
  const auto& table = function_table(level);

  std::map<std::string, size_t> index;
  for (size_t v = 0; v < net->variables.size(); ++v) index[net->variables[v].name] = v;
  std::set<std::string> generators;
  for (const auto& g : executor.generator_variable) generators.insert(g.variable_name);

  // Functions first: every missing one is reported at once.
  check_function_table(*net, level);

  // Parameter preprocessing (docs/nnb_format.md#data-blocks): Affine weights output-major, binary
  // convolution weights truncated.
  std::map<std::string, std::vector<float>> data;
  for (const auto& v : net->variables)
    if (v.type == "Parameter")
      if (const nn::ir::Parameter* p = model.find_parameter(v.name)) data[v.name] = p->data;
  std::set<std::string> transposed;
  for (const auto& f : net->functions) {
    for (size_t k : transposed_inputs(f.type)) {
      if (k >= f.inputs.size() || !data.count(f.inputs[k]) || !transposed.insert(f.inputs[k]).second) continue;
      const auto* v = net->find_variable(f.inputs[k]);
      data[f.inputs[k]] = transpose_2d(data[f.inputs[k]], v->shape.empty() ? 0 : v->shape[0]);
    }
    if (opt.truncate_binary_weights &&
        (f.type == "BinaryConnectConvolution" || f.type == "BinaryWeightConvolution") && f.inputs.size() > 1 &&
        data.count(f.inputs[1]) && !data[f.inputs[1]].empty())
      data[f.inputs[1]].resize(1);
  }

  // Variables, buffer sizes and lifetimes.
  std::vector<int64_t> buffer_sizes;
  std::vector<int> buffer_of(net->variables.size(), -1);
  std::vector<int> variable_of_buffer;
  std::mt19937 rng(0);
  for (size_t v = 0; v < net->variables.size(); ++v) {
    const auto& var = net->variables[v];
    NnbVariable nv;
    nv.id = uint32_t(v);
    for (int64_t d : var.shape) nv.shape.push_back(int32_t(d));
    auto st = opt.settings.variables.find(var.name);
    const VariableType vt = st != opt.settings.variables.end() ? st->second : opt.default_type;
    nv.type = vt.type;
    nv.fp_pos = vt.fp_pos.value_or(0);
    const int64_t count = element_count(nv.shape);
    if (var.type == "Parameter" || generators.count(var.name)) {
      std::vector<float> x;
      if (generators.count(var.name)) {
        const auto& g = *std::find_if(executor.generator_variable.begin(), executor.generator_variable.end(),
                                      [&](const auto& e) { return e.variable_name == var.name; });
        std::normal_distribution<float> normal;
        std::uniform_real_distribution<float> uniform(-1, 1);
        for (int64_t k = 0; k < count; ++k)
          x.push_back(float(g.multiplier) * (g.type == "Normal"    ? normal(rng)
                                             : g.type == "Uniform" ? uniform(rng)
                                                                   : 1.0f));
        nv.type = DataType::kFloat;
      } else {
        auto it = data.find(var.name);
        NN_CHECK(it != data.end()) << "Parameter '" << var.name << "' of network '" << net->name
                                   << "' has no data";
        x = it->second;
      }
      nv.data = encode_data(x, nv.type, nv.fp_pos, vt.fp_pos.has_value(), var.name);
      nv.data_index = 0;
      if (plan) plan->weight_bytes[int(nv.type)] += int64_t(nv.data.size());
    } else {
      NN_CHECK(nv.type != DataType::kSign)
          << "variable '" << var.name << "': Unsupport SIGN type for Buffer Variable.";
      NN_CHECK(nv.type == DataType::kFloat || vt.fp_pos.has_value())
          << "variable '" << var.name << "': fp_pos must be specified for Buffer Variable";
      buffer_of[v] = int(buffer_sizes.size());
      variable_of_buffer.push_back(int(v));
      const int bytes = st != opt.settings.variables.end() ? element_bytes(st->second.type) : 4;
      buffer_sizes.push_back(n.version >= 3 ? count * bytes : count);
    }
    n.variables.push_back(std::move(nv));
  }
  const int num_functions = int(net->functions.size());
  std::vector<int> begin(buffer_sizes.size(), -1), end(buffer_sizes.size(), -1);
  for (int k = 0; k < num_functions; ++k) {
    const auto& f = net->functions[size_t(k)];
    for (const auto* names : {&f.inputs, &f.outputs})
      for (const auto& name : *names) {
        auto it = index.find(name);
        NN_CHECK(it != index.end()) << ir::label(f) << ": variable '" << name << "' is not declared in network '"
                                    << net->name << "'";
        const int b = buffer_of[it->second];
        if (b < 0) continue;
        if (begin[size_t(b)] < 0) begin[size_t(b)] = k;
        end[size_t(b)] = k;
      }
  }
  auto var_index = [&](const std::string& name, const std::string& what) {
    auto it = index.find(name);
    NN_CHECK(it != index.end()) << "executor '" << executor.name << "': " << what << " '" << name
                                << "' is not a variable of network '" << net->name << "'";
    return uint32_t(it->second);
  };
  for (const auto& d : executor.data_variable) {
    n.inputs.push_back(var_index(d.variable_name, "data variable"));
    if (int b = buffer_of[n.inputs.back()]; b >= 0) begin[size_t(b)] = 0;
  }
  for (const auto& o : executor.output_variable) {
    n.outputs.push_back(var_index(o.variable_name, "output variable"));
    if (int b = buffer_of[n.outputs.back()]; b >= 0) end[size_t(b)] = num_functions;
  }
  // nnabla-c-runtime's BatchMatmul adds its products into the output buffer without zeroing it first, so
  // the buffer must never have held another variable: live for the whole network, it gets a slot of its
  // own (the runtime allocates buffers zeroed).
  for (const auto& f : net->functions) {
    if (f.type != "BatchMatmul") continue;
    for (const auto& name : f.outputs)
      if (const int b = buffer_of[index.at(name)]; b >= 0) {
        begin[size_t(b)] = 0;
        end[size_t(b)] = num_functions;
      }
  }
  std::vector<std::vector<int>> live(size_t(std::max(num_functions, 1)));
  for (size_t b = 0; b < buffer_sizes.size(); ++b)
    for (int k = std::max(begin[b], 0); begin[b] >= 0 && k <= end[b] && k < int(live.size()); ++k)
      live[size_t(k)].push_back(int(b));
  std::vector<int> assignment;
  std::vector<int64_t> actual = plan_buffers(buffer_sizes, live, assignment);
  for (int64_t s : actual) n.buffers.push_back(uint32_t(s));
  for (size_t b = 0; b < buffer_sizes.size(); ++b)
    n.variables[size_t(variable_of_buffer[b])].data_index = -(std::max(assignment[b], 0) + 1);

  for (const auto& f : net->functions) {
    const FunctionIdEntry& e = table.at(f.type);
    NnbFunction nf;
    nf.type = e.id;
    auto impl = opt.settings.implement.find(f.name);
    nf.impl = impl == opt.settings.implement.end() ? 0 : impl->second;
    for (const auto& name : f.inputs) nf.inputs.push_back(uint32_t(index.at(name)));
    for (const auto& name : f.outputs) nf.outputs.push_back(uint32_t(index.at(name)));
    nf.args = nn::with_context(ir::label(f), [&] { return encode_arguments(f.type, e.argcode, f.attrs, level); });
    n.functions.push_back(std::move(nf));
  }
  if (plan) {
    const int64_t unit = n.version >= 3 ? 1 : 4;
    for (int64_t s : actual) plan->activation_bytes += std::max<int64_t>(s, 0) * unit;
    for (int64_t s : buffer_sizes) plan->unshared_bytes += s * unit;
    for (int k = 0; k < num_functions; ++k) {
      int64_t bytes = 0;
      for (int b : live[size_t(k)]) bytes += buffer_sizes[size_t(b)] * unit;
      plan->functions.push_back({net->functions[size_t(k)].name, net->functions[size_t(k)].type, bytes});
    }
  }
  return n;
}

}  // namespace nn::formats::nnb
