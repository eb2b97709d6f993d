// State of one ONNX graph import: tensors with static shapes (constants folded), emitted nnabla functions.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "formats/onnx/import/symbolic_size.hpp"
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
  // Outputs named here are computed by their function in the network rather than folded (onnx_importer.hpp).
  void compute_at_run_time(std::set<std::string> names) { at_run_time_ = std::move(names); }
  bool computed_at_run_time(const std::string& name) const { return at_run_time_.count(name) > 0; }
  // A sub-graph's context (Loop's body, If's branches): shapes may change from one run to the next, so Shape is
  // computed when it runs rather than folded.
  bool shapes_at_run_time() const { return shapes_at_run_time_; }
  void set_shapes_at_run_time(bool on) { shapes_at_run_time_ = on; }

  // Tensors (names after Cast/Identity aliasing).
  bool has(const std::string& name) const;
  const Shape& shape(const std::string& name) const;
  int64_t rank(const std::string& name) const { return int64_t(shape(name).size()); }
  // Known at import time and foldable (initializers that are also graph inputs are not).
  bool is_constant(const std::string& name) const;
  // Whether its values are known at import (any constant, an overridable initializer's default included); else
  // they are computed from the data when the graph runs.
  bool has_values(const std::string& name) const { return tensor(name).constant; }
  std::vector<float> const_values(const std::string& name) const;
  // Exact integers for integer tensors, rounded floats otherwise; throws unless constant, and when the value
  // follows run-time sizes (symbols(name)).
  std::vector<int64_t> const_ints(const std::string& name) const;
  // The import-time values of a constant even when they stand in for run-time sizes (rules that follow symbols).
  std::vector<int64_t> stand_in_ints(const std::string& name) const;
  std::vector<float> stand_in_values(const std::string& name) const;

  // Symbolic values (symbolic_size.hpp): a small constant computed from the sizes of data-sized tensors holds,
  // besides its import-time stand-in values, one expression per element; nullptr when it has none.
  const SymValues* symbols(const std::string& name) const;
  void set_symbols(const std::string& name, SymValues values);
  // The data-sized axis of a tensor (-1: none) and its run-time length.
  int64_t data_axis(const std::string& name) const { return tensor(name).data_axis; }
  // Axis `axis`'s length: the data size on the data axis, else the constant dim.
  Sym dim_symbol(const std::string& name, int64_t axis) const;
  // The element count as a symbol.
  Sym size_symbol(const std::string& name) const;
  const AtomBounds& atom_bounds() const { return atom_bounds_; }
  // A 1-D tensor whose run-time length is `size` (the data axis of a tensor computed earlier, sliced to it);
  // throws when no tensor computed so far has that length.
  std::string ruler(const Sym& size, const std::string& what);
  // A new run-time length, at most `bound` (nullptr: unbounded).
  Sym fresh_size(Sym bound = nullptr) { return new_atom(std::move(bound)); }
  // Marks output `name` as having data axis `axis` of run-time length `size`.
  void set_data_axis(const std::string& name, int64_t axis, Sym size);
  // ONNX element type when known (FLOAT by default).
  int32_t data_type(const std::string& name) const;
  void set_data_type(const std::string& name, int32_t t);
  // Whether `name` reads another tensor (Cast removal, Identity of a constant).
  bool aliased(const std::string& name) const { return resolve(name) != name; }

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
  // `subnetworks`: the graphs the function runs itself (Loop's body), never folded.
  using SubNetworks = std::vector<std::shared_ptr<const ir::SubNetwork>>;
  std::vector<std::string> emit(const std::string& type, const std::vector<std::string>& inputs,
                                const Attrs& attrs, std::vector<std::string> outputs, bool fold = true,
                                const SubNetworks& subnetworks = {});
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
    Sym data_size;  // its run-time length (set with data_axis)
    SymValues sym;  // symbolic values (empty: none)
  };
  struct DataAxis {
    int64_t axis = -1;
    Sym size;
  };
  const Tensor& tensor(const std::string& name) const;
  // The data-sized axis (if any) of an output of `type` over `inputs`, for output j of rank `rank`.
  DataAxis output_data_axis(const std::string& type, const std::vector<std::string>& inputs, const Attrs& attrs,
                            const Function& f, size_t j, const Shape& out_shape);
  Sym new_atom(Sym bound);
  void fold_symbols_of(const std::string& type, const std::vector<std::string>& inputs, const Attrs& attrs,
                       const std::vector<std::string>& outputs, const std::vector<VariablePtr>& results);
  // A Reshape of a data-sized tensor: the target dim that carries its data axis becomes -1.
  Attrs reshape_of_data_axis(const std::string& input, const Attrs& attrs) const;
  std::string resolve(const std::string& name) const;
  std::string function_name(const std::string& type);
  void declare_buffer(const std::string& name, const Shape& shape);

  std::string graph_name_;
  int64_t opset_;
  bool symbolic_batch_ = false;
  bool shapes_at_run_time_ = false;
  std::string base_dir_;
  std::map<std::string, Tensor> tensors_;
  std::set<std::string> at_run_time_;
  std::map<std::string, std::string> aliases_;
  std::map<std::string, int> type_counts_;
  int helper_counter_ = 0;
  std::string node_name_;
  std::string node_base_;
  ir::Network network_;
  std::map<std::string, Shape> declared_inputs_;
  AtomBounds atom_bounds_;
  std::map<std::string, Sym> same_length_;     // data-sized function, inputs and arguments -> its output's length
  std::map<std::string, std::string> rulers_;  // sym_text(size) -> a 1-D tensor of that run-time length
  std::map<std::string, std::pair<std::string, int64_t>> sized_;  // sym_text(size) -> (tensor, axis) of it
};

}  // namespace nn::formats::onnx
