// TFLite -> ir::Model driver: tensors, constants (dequantized), quantized graph inputs/outputs, one rule per op.
#include "formats/tflite/tflite_import.hpp"

#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>

#include "formats/passes/symbolic_batch.hpp"
#include "formats/tflite/tflite_graph.hpp"
#include "formats/tflite/tflite_importer.hpp"
#include "formats/tflite/tflite_reader.hpp"
#include "nn/core/error.hpp"

namespace nn::formats {
namespace tflite_import {

namespace {
// raw[i] = the i-th little-endian T at p, for every element of raw.
template <class T>
void widen(const uint8_t* p, std::vector<double>& raw) {
  for (size_t i = 0; i < raw.size(); ++i) {
    T v;
    std::memcpy(&v, p + sizeof(T) * i, sizeof(T));
    raw[i] = double(v);
  }
}
}  // namespace

bool has_dynamic_batch(const tflite::TensorT& t) {
  return !t.shape.empty() && t.shape_signature.size() == t.shape.size() && t.shape_signature[0] == -1;
}

Importer::Importer(const tflite::ModelT& model, int64_t batch)
    : model_(model), graph_(*model.subgraphs.at(0)), batch_(batch) {
  network_.name = "main";
  network_.batch_size = 1;
}

Shape Importer::shape(int index) const {
  const auto& t = tensor(index);
  Shape s(t.shape.begin(), t.shape.end());
  if (has_dynamic_batch(t) && !is_constant(index)) s[0] = batch_;
  return s;
}

bool Importer::is_constant(int index) const { return !model_.buffers.at(tensor(index).buffer)->data.empty(); }

bool Importer::is_quantized(int index) const { return quantized_io(tensor(index)).has_value(); }

std::vector<float> Importer::constant(int index) const {
  const auto& t = tensor(index);
  const auto& bytes = model_.buffers.at(t.buffer)->data;
  const size_t n = size_t(shape_size(shape(index)));
  // The reader checked every non-empty buffer against its tensor's shape; a tensor read as a constant must
  // also have one (an empty buffer is an activation), and the shape used here must still fit it.
  const size_t element = tflite_io::element_size(t.type);
  NN_CHECK(element == 0 || bytes.size() / element == n)
      << "tensor '" << t.name << "': its buffer holds " << bytes.size() << " bytes, its shape "
      << to_string(shape(index)) << " of " << tflite::EnumNameTensorType(t.type) << " needs " << n * element;
  std::vector<float> out(n);
  const uint8_t* p = bytes.data();
  std::vector<double> raw(n);
  switch (t.type) {
    case tflite::TensorType_FLOAT32: widen<float>(p, raw); break;
    case tflite::TensorType_INT32: widen<int32_t>(p, raw); break;
    case tflite::TensorType_INT64: widen<int64_t>(p, raw); break;
    case tflite::TensorType_INT16: widen<int16_t>(p, raw); break;
    case tflite::TensorType_INT8: widen<int8_t>(p, raw); break;
    case tflite::TensorType_UINT8: widen<uint8_t>(p, raw); break;
    default:
      NN_CHECK_CODE(n == 0, ErrorCode::kUnsupported) << "tensor '" << t.name << "': constants of type "
                                                     << tflite::EnumNameTensorType(t.type) << " are not supported";
  }
  const auto* q = t.quantization.get();
  if (q && !q->scale.empty() && t.type != tflite::TensorType_FLOAT32) {
    const size_t nq = q->scale.size();
    size_t inner = 1, dim = 0;
    if (nq > 1) {
      dim = size_t(q->quantized_dimension);
      for (size_t d = dim + 1; d < t.shape.size(); ++d) inner *= size_t(t.shape[d]);
    }
    for (size_t i = 0; i < n; ++i) {
      size_t c = nq > 1 ? (i / inner) % nq : 0;
      double zp = q->zero_point.empty() ? 0.0 : double(q->zero_point[c]);
      out[i] = float((raw[i] - zp) * q->scale[c]);
    }
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = float(raw[i]);
  }
  return out;
}

std::vector<int64_t> Importer::constant_ints(int index) const {
  NN_CHECK(is_constant(index)) << "tensor '" << tensor(index).name << "' must be a constant";
  const auto t = tensor(index).type;
  NN_CHECK(t == tflite::TensorType_INT32 || t == tflite::TensorType_INT64)
      << "tensor '" << tensor(index).name << "' must hold integers";
  std::vector<float> f = constant(index);
  return std::vector<int64_t>(f.begin(), f.end());
}

std::string Importer::unique(const std::string& base) {
  std::string name = base.empty() ? "t" : base;
  int& n = used_names_[name];
  if (n++ == 0) return name;
  for (;; ++n) {
    std::string candidate = name + "_" + std::to_string(n);
    if (!used_names_.count(candidate)) {
      used_names_[candidate] = 1;
      return candidate;
    }
  }
}

std::string Importer::temp(const std::string& base, const Shape& s) {
  ir::Variable v;
  v.name = unique(base);
  v.shape = s;
  network_.variables.push_back(v);
  return v.name;
}

std::string Importer::param(const std::string& base, const Shape& s, std::vector<float> data) {
  ir::Variable v;
  v.name = unique(base);
  v.type = "Parameter";
  v.shape = s;
  v.initializer = {"Constant", 1.0};
  network_.variables.push_back(v);
  ir::Parameter p;
  p.name = v.name;
  p.shape = s;
  p.data = std::move(data);
  out_.parameters.push_back(std::move(p));
  return v.name;
}

std::string Importer::var(int index) {
  NN_CHECK(index >= 0) << "an optional input is required here";
  auto it = vars_.find(index);
  if (it != vars_.end()) return it->second;
  const auto& t = tensor(index);
  NN_CHECK(is_constant(index)) << "tensor " << index << " '" << t.name
                               << "' is read before any operator writes it";
  std::string name = param(t.name, shape(index), constant(index));
  vars_[index] = name;
  return name;
}

void Importer::fn(const std::string& type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                  Attrs attrs) {
  ir::Function f;
  f.name = unique(op_name_ + "/" + type);
  f.type = type;
  f.inputs = std::move(inputs);
  f.outputs = std::move(outputs);
  f.attrs = std::move(attrs);
  f.has_param = !f.attrs.empty();
  network_.functions.push_back(std::move(f));
}

void Importer::finish(const std::string& value, int index, tflite::ActivationFunctionType act) {
  const Shape s = shape(index);
  std::string v = value;
  auto step = [&](const std::string& type, Attrs attrs) {
    std::string out = temp(tensor(index).name + "/" + type, s);
    fn(type, {v}, {out}, std::move(attrs));
    v = out;
  };
  switch (act) {
    case tflite::ActivationFunctionType_NONE: break;
    case tflite::ActivationFunctionType_RELU: step("ReLU", {}); break;
    case tflite::ActivationFunctionType_RELU6: step("ReLU6", {}); break;
    case tflite::ActivationFunctionType_TANH: step("Tanh", {}); break;
    case tflite::ActivationFunctionType_RELU_N1_TO_1:
      step("MaximumScalar", {{"val", -1.0}});
      step("MinimumScalar", {{"val", 1.0}});
      break;
    default:
      NN_FAIL(ErrorCode::kUnsupported) << "fused activation " << tflite::EnumNameActivationFunctionType(act)
                                       << " is not supported";
  }
  if (const auto q = quantized_io(tensor(index))) {  // round to the tensor's grid and saturate to its range
    step("MulScalar", {{"val", 1.0 / q->scale}});
    step("Round", {});
    step("MaximumScalar", {{"val", double(q->min - q->zero_point)}});
    step("MinimumScalar", {{"val", double(q->max - q->zero_point)}});
    step("MulScalar", {{"val", q->scale}});
  }
  vars_[index] = v;
}

ir::Model Importer::build() {
  ir::Executor exec;
  exec.name = "exec_0";
  exec.network_name = network_.name;
  std::vector<int32_t> inputs;
  for (int32_t i : graph_.inputs)
    if (i >= 0 && !is_constant(i)) inputs.push_back(i);
  for (int32_t i : inputs) NN_INTERNAL_CHECK(vars_.count(i)) << "input " << i << " was not declared";
  for (int32_t o : graph_.outputs) {
    NN_CHECK(o >= 0 && vars_.count(o)) << "subgraph output " << o << " is written by no operator";
    std::string v = vars_.at(o);
    const auto& t = tensor(o);
    std::string name = t.name;
    if (const auto q = quantized_io(t)) {  // raw integers out, like the runtime's output tensor
      std::string a = temp(name + "/q", shape(o));
      fn("MulScalar", {v}, {a}, {{"val", 1.0 / q->scale}});
      std::string b = temp(name + "/r", shape(o));
      fn("Round", {a}, {b});
      std::string c = unique(name);  // the output keeps the tensor's name where it is free
      network_.variables.push_back({c, "Buffer", {}, shape(o), {}});
      fn("AddScalar", {b}, {c}, {{"val", double(q->zero_point)}});
      v = c;
    } else {
      std::string c = unique(name);
      network_.variables.push_back({c, "Buffer", {}, shape(o), {}});
      fn("Identity", {v}, {c});
      v = c;
    }
    exec.output_variable.push_back({v, "", v});
  }
  for (int32_t i : inputs) exec.data_variable.push_back({raw_inputs_.at(i), raw_inputs_.at(i)});
  for (const auto& p : out_.parameters) exec.parameter_variable.push_back({p.name, 1.0});
  out_.networks.push_back(network_);
  out_.executors.push_back(std::move(exec));
  return std::move(out_);
}

void Importer::declare_input(int index) {
  const auto& t = tensor(index);
  std::string raw = temp(t.name, shape(index));
  raw_inputs_[index] = raw;
  const auto q = quantized_io(t);
  if (!q) {
    vars_[index] = raw;
    return;
  }
  std::string a = temp(t.name + "/centered", shape(index));
  fn("AddScalar", {raw}, {a}, {{"val", -double(q->zero_point)}});
  std::string b = temp(t.name + "/dequantized", shape(index));
  fn("MulScalar", {a}, {b}, {{"val", q->scale}});
  vars_[index] = b;
}

}  // namespace tflite_import

namespace {

// The network with the dynamic batch (if any) traced as `batch`.
ir::Model import_graph(const tflite::ModelT& model, int64_t batch) {
  tflite_import::Importer im(model, batch);
  const auto& g = *model.subgraphs[0];
  im.set_op_name("input");
  for (int32_t i : g.inputs)
    if (i >= 0 && !im.is_constant(i)) im.declare_input(i);
  for (size_t k = 0; k < g.operators.size(); ++k) {
    const auto& op = *g.operators[k];
    const auto& oc = *model.operator_codes[op.opcode_index];
    const int32_t code = std::max<int32_t>(oc.builtin_code, oc.deprecated_builtin_code);
    const std::string what = "operator " + std::to_string(k) + " (" + tflite_io::builtin_op_name(code) + ")";
    const bool named = !op.outputs.empty() && op.outputs[0] >= 0 && size_t(op.outputs[0]) < g.tensors.size();
    im.set_op_name(named ? im.tensor(op.outputs[0]).name : what);  // a bad index is reported by the rule
    with_context(
        what, [&] {
          try {
            (*tflite_import::find_import_rule(code))(im, op);
          } catch (const std::out_of_range&) {  // a rule reading an input or output the file does not give
            NN_FAIL(ErrorCode::kInvalid)
                << "has " << op.inputs.size() << " inputs and " << op.outputs.size()
                << " outputs, fewer than the operator needs, or one names a tensor the model lacks";
          }
        });
  }
  return im.build();
}

}  // namespace

ir::Model import_tflite_bytes(const std::string& bytes) {
  auto model = tflite_io::parse_tflite(bytes);
  const auto& g = *model->subgraphs[0];
  // Every operator without a rule, named at once.
  std::set<std::string> missing;
  for (const auto& op : g.operators) {
    const auto& oc = *model->operator_codes[op->opcode_index];
    const int32_t code = std::max<int32_t>(oc.builtin_code, oc.deprecated_builtin_code);
    if (tflite_import::find_import_rule(code) == nullptr) missing.insert(tflite_io::builtin_op_name(code));
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    NN_FAIL(ErrorCode::kUnsupported) << missing.size() << " operator(s) cannot be imported: " << list;
  }
  // A graph input with shape_signature -1 first: the batch is dynamic. The static shape's batch stays the
  // network's default; `-b N` runs it at N.
  int64_t static_batch = 0;
  for (int32_t i : g.inputs)
    if (i >= 0 && tflite_import::has_dynamic_batch(*g.tensors[size_t(i)]))
      static_batch = static_batch ? static_batch : g.tensors[size_t(i)]->shape[0];
  if (static_batch == 0) return import_graph(*model, 1);
  ir::Model merged =
      merge_symbolic_batch(import_graph(*model, 1), import_graph(*model, 2), "give the model a fixed batch size");
  merged.networks[0].batch_size = std::max<int64_t>(static_batch, 1);
  return merged;
}

ir::Model import_tflite(const std::string& path) {
  return with_context("'" + path + "'", [&] { return import_tflite_bytes(tflite_io::read_file_bytes(path)); });
}

}  // namespace nn::formats
