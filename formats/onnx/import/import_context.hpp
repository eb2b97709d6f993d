// State of one ONNX graph import: tensors with static shapes (constants folded), emitted nnabla functions.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/ir/model.hpp"
#include "nn/ops/attributes.hpp"
#include "onnx/onnx_pb.h"

namespace nn::formats::onnx {

// Read access to one node's inputs, outputs and attributes (with ONNX defaults).
class NodeView {
 public:
  explicit NodeView(const ::onnx::NodeProto& node) : node_(node) {}
  const ::onnx::NodeProto& proto() const { return node_; }
  const std::string& op() const { return node_.op_type(); }
  size_t num_inputs() const { return size_t(node_.input_size()); }
  size_t num_outputs() const { return size_t(node_.output_size()); }
  // "" when absent (optional inputs may be empty names).
  std::string input(size_t i) const { return i < num_inputs() ? node_.input(int(i)) : std::string(); }
  std::string output(size_t i) const { return i < num_outputs() ? node_.output(int(i)) : std::string(); }
  bool has(const std::string& name) const { return find(name) != nullptr; }
  int64_t get_int(const std::string& name, int64_t def) const;
  float get_float(const std::string& name, float def) const;
  std::string get_string(const std::string& name, const std::string& def) const;
  std::vector<int64_t> get_ints(const std::string& name, const std::vector<int64_t>& def = {}) const;
  std::vector<float> get_floats(const std::string& name, const std::vector<float>& def = {}) const;
  const ::onnx::TensorProto* get_tensor(const std::string& name) const;

 private:
  const ::onnx::AttributeProto* find(const std::string& name) const;
  const ::onnx::NodeProto& node_;
};

class ImportContext {
 public:
  ImportContext(std::string graph_name, int64_t opset, std::string base_dir);

  int64_t opset() const { return opset_; }
  // Whether graph inputs have symbolic dims (traced twice): batch-sized constants must then be computed from
  // the inputs instead (see symbolic_batch.hpp).
  bool symbolic_batch() const { return symbolic_batch_; }
  void set_symbolic_batch(bool on) { symbolic_batch_ = on; }
  const std::string& base_dir() const { return base_dir_; }

  // Tensors (names after Cast/Identity aliasing).
  bool has(const std::string& name) const;
  const Shape& shape(const std::string& name) const;
  int64_t rank(const std::string& name) const { return int64_t(shape(name).size()); }
  // Known at import time and foldable (initializers that are also graph inputs are not).
  bool is_constant(const std::string& name) const;
  std::vector<float> const_values(const std::string& name) const;
  // Exact integers for integer tensors, rounded floats otherwise; throws unless constant.
  std::vector<int64_t> const_ints(const std::string& name) const;
  // ONNX element type when known (FLOAT by default).
  int32_t data_type(const std::string& name) const;
  void set_data_type(const std::string& name, int32_t t);

  // A graph input: `static_shape` for import-time inference, `declared` (-1 for symbolic dims) for the file.
  void add_input(const std::string& name, const Shape& static_shape, const Shape& declared, int32_t data_type);
  // Constants are materialized at import: one of more than 2^28 elements (1 GiB) or with a negative dim is
  // refused (a malformed or hostile file), naming it.
  static constexpr int64_t kMaxConstantElements = int64_t(1) << 28;
  static int64_t checked_constant_size(const std::string& name, const Shape& shape);
  void add_constant(const std::string& name, const Shape& shape, std::vector<float> values,
                    std::vector<int64_t> ints = {}, int32_t data_type = 1, bool foldable = true);
  // `name` reads `target` (Cast removal, Identity folding of constants).
  void alias(const std::string& name, const std::string& target);

  // Names the functions of the current node.
  void begin_node(const ::onnx::NodeProto& node);
  // Emits an nnabla function (folded into a constant when every input is constant). Empty output names
  // get helper names. Returns the output names.
  std::vector<std::string> emit(const std::string& type, const std::vector<std::string>& inputs,
                                const Attrs& attrs, std::vector<std::string> outputs, bool fold = true);
  std::string emit1(const std::string& type, const std::vector<std::string>& inputs, const Attrs& attrs = {},
                    const std::string& output = "");
  // A fresh constant named after the current node.
  std::string constant(const Shape& shape, std::vector<float> values);
  std::string helper_name(const std::string& base);

  // Network + executor exec_0 + parameters used by the network.
  ir::Model finish(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

 private:
  struct Tensor {
    VariablePtr var;
    bool constant = false;
    bool foldable = true;  // false: an initializer that is also a graph input (overridable), kept as parameter
    std::vector<int64_t> ints;
    int32_t data_type = 1;
    // The axis whose size follows the data (NonZero's count and what keeps it), or -1: its import-time size is
    // a stand-in, so a Reshape of the tensor infers that axis at run time.
    int64_t data_axis = -1;
  };
  const Tensor& tensor(const std::string& name) const;
  // The data-sized axis (if any) of an output of `type` over `inputs`, for output j of rank `rank`.
  int64_t output_data_axis(const std::string& type, const std::vector<std::string>& inputs, const Attrs& attrs,
                           const Function& f, size_t j, size_t rank) const;
  // A Reshape of a data-sized tensor: the target dim that carries its data axis becomes -1.
  Attrs reshape_of_data_axis(const std::string& input, const Attrs& attrs) const;
  std::string resolve(const std::string& name) const;
  std::string function_name(const std::string& type);
  void declare_buffer(const std::string& name, const Shape& shape);

  std::string graph_name_;
  int64_t opset_;
  bool symbolic_batch_ = false;
  std::string base_dir_;
  std::map<std::string, Tensor> tensors_;
  std::map<std::string, std::string> aliases_;
  std::map<std::string, int> type_counts_;
  int helper_counter_ = 0;
  std::string node_name_;
  std::string node_base_;
  ir::Network network_;
  std::map<std::string, Shape> declared_inputs_;
};

}  // namespace nn::formats::onnx
