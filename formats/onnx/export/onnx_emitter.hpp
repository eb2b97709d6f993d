// Export state shared by the per-family ONNX rules: the graph being written, helper names, shapes, constants.
#pragma once
#include <onnx/onnx_pb.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats::onnx_export {

enum class Dialect { kPlain, kSnpe, kTensorRt };

class Emitter {
 public:
  Emitter(const ir::Model& model, const ir::Network& network, onnx::GraphProto* graph, int table, Dialect dialect);

  int table() const { return table_; }  // function table in use: 6, 7, 9, 10, 11, 13, 14 or 17
  Dialect dialect() const { return dialect_; }
  const ir::Network& network() const { return network_; }

  // "<base>_<NNNN>_<suffix>": a fresh helper tensor name from the global counter.
  std::string fresh(const std::string& base, const std::string& suffix);
  // "<Op>_<NNNN>": a node name from the same counter.
  std::string node_name(const std::string& op);
  onnx::NodeProto* node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = "");

  // Static shape of a network variable (batch already substituted); throws when unknown.
  const Shape& shape(const std::string& variable) const;
  bool is_parameter(const std::string& variable) const;
  const ir::Parameter* parameter(const std::string& name) const;
  // Declares the initializer of parameter `name` with other dims (same element count) or transposed data.
  void reshape_parameter(const std::string& name, const Shape& dims);
  void replace_parameter_data(const std::string& name, const Shape& dims, std::vector<float> data);

  // Initializers created on the fly; return their names.
  std::string int64_initializer(const std::string& base, const std::vector<int64_t>& values, const Shape& dims);
  std::string int64_initializer(const std::string& base, const std::vector<int64_t>& values);  // 1-D
  // An INT8/UINT8/INT32 initializer (values kept in int32_data).
  std::string small_int_initializer(const std::string& base, int elem_type, const std::vector<int64_t>& values,
                                    const Shape& dims);
  void named_float_initializer(const std::string& name, const std::vector<float>& values, const Shape& dims);
  std::string float_initializer(const std::string& base, const std::vector<float>& values, const Shape& dims);
  // A Constant node holding a float tensor; returns its output name.
  std::string float_constant(const std::string& base, const std::vector<float>& values, const Shape& dims,
                             const std::string& suffix = "scalar");
  std::string int64_constant(const std::string& base, const std::vector<int64_t>& values);  // 1-D Constant node
  std::string bool_constant(const std::string& base, bool value, const Shape& dims);
  // Cast node of `input` to element type `to` (onnx::TensorProto::DataType); returns the output name.
  std::string cast(const std::string& input, int to, const std::string& output = "");
  // Reshape node from `input` to `dims` (shape as an initializer); returns the output name.
  std::string reshape(const std::string& input, const Shape& dims, const std::string& output = "");

  // Element types other than FLOAT for graph inputs/outputs (BOOL for logic results, INT32 for indices).
  void set_elem_type(const std::string& variable, int elem_type) { elem_types_[variable] = elem_type; }
  int elem_type(const std::string& variable) const;

  // Dynamic batch (network exported at batch 1): the variables of `source` whose first dim is -1 keep a
  // symbolic batch; reshape targets of batched tensors get -1 there.
  void set_dynamic_batch(const ir::Network& source);
  bool dynamic_batch() const { return dynamic_batch_; }
  bool has_batch_axis(const std::string& variable) const { return batch_variables_.count(variable) > 0; }
  // `dims` as reshape values: the first one -1 when dynamic and `batched`.
  std::vector<int64_t> shape_values(const Shape& dims, bool batched) const;

  // Writes the parameters that are network variables (with declared dims) after the helper initializers.
  void write_parameters();

 private:
  const ir::Model& model_;
  const ir::Network& network_;
  onnx::GraphProto* graph_;
  int table_;
  Dialect dialect_;
  int counter_ = 0;
  std::map<std::string, Shape> param_dims_;
  std::map<std::string, std::pair<Shape, std::vector<float>>> param_data_;
  std::map<std::string, int> elem_types_;
  bool dynamic_batch_ = false;
  std::set<std::string> batch_variables_;
};

// Attribute helpers.
void set_attr(onnx::NodeProto* node, const std::string& name, int64_t value);
void set_attr(onnx::NodeProto* node, const std::string& name, float value);
void set_attr(onnx::NodeProto* node, const std::string& name, const std::string& value);
void set_attr(onnx::NodeProto* node, const std::string& name, const std::vector<int64_t>& values);
void set_attr(onnx::NodeProto* node, const std::string& name, const std::vector<float>& values);

// One export rule: nnabla function type, first table that has it, and the emitter.
using RuleFn = void (*)(Emitter&, const ir::Function&);
struct Rule {
  const char* type;
  int min_table;
  RuleFn emit;
};

// Families, one file each.
void add_elementwise_rules(std::vector<Rule>& rules);
void add_layer_rules(std::vector<Rule>& rules);
void add_array_rules(std::vector<Rule>& rules);
void add_composite_rules(std::vector<Rule>& rules);      // GELU, Mish, BinarySigmoid/Tanh, Where
void add_indexing_rules(std::vector<Rule>& rules);       // Flip, CumSum, Embed, Unpooling
void add_normalization_rules(std::vector<Rule>& rules);  // Layer/Instance/GroupNormalization
void add_resize_rules(std::vector<Rule>& rules);         // Interpolate
void add_selection_rules(std::vector<Rule>& rules);      // OneHot, Sort, TopKData
void add_quantization_rules(std::vector<Rule>& rules);   // QuantizeLinear, DequantizeLinear
void add_gather_rules(std::vector<Rule>& rules);         // Gather, GatherNd, ScatterNd, Einsum, Trilu, ONNXResize
void add_recurrent_rules(std::vector<Rule>& rules);      // RNN, LSTM, GRU
void add_data_sized_rules(std::vector<Rule>& rules);     // NonZero, BoolGather, Unique, ONNXNonMaxSuppression

// All rules, and the one for a type usable at a table (nullptr if none).
const std::vector<Rule>& all_rules();
const Rule* find_rule(const std::string& type, int table);

}  // namespace nn::formats::onnx_export
