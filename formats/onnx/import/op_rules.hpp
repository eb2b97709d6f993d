// The ONNX import table: one rule per (operator, opset range), registered per op family, plus shared helpers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "formats/onnx/import/import_context.hpp"

namespace nn::formats::onnx {

using ImportFn = void (*)(ImportContext& ctx, const NodeView& node);

struct OpRule {
  const char* op;
  int64_t since;  // first opset this rule reads
  int64_t until;  // last opset this rule reads
  ImportFn fn;
};

// Families (one file each).
void add_elementwise_rules(std::vector<OpRule>& rules);  // import_elementwise.cpp
void add_binary_rules(std::vector<OpRule>& rules);       // import_binary.cpp
void add_nn_rules(std::vector<OpRule>& rules);           // import_nn.cpp
void add_pooling_rules(std::vector<OpRule>& rules);      // import_pooling.cpp
void add_tensor_rules(std::vector<OpRule>& rules);       // import_tensor.cpp
void add_shape_rules(std::vector<OpRule>& rules);        // import_shape.cpp
void add_math_rules(std::vector<OpRule>& rules);         // import_math.cpp
void add_resize_rules(std::vector<OpRule>& rules);       // import_resize.cpp
void add_selection_rules(std::vector<OpRule>& rules);    // import_selection.cpp (TopK, Quantize/Dequantize)
void add_indexing_rules(std::vector<OpRule>& rules);     // import_indexing.cpp (GatherElements, ScatterND, ...)
void add_layer_norm_rules(std::vector<OpRule>& rules);   // import_layer_norm.cpp
void add_recurrent_rules(std::vector<OpRule>& rules);    // import_recurrent.cpp (LSTM, GRU, RNN)
void add_loss_rules(std::vector<OpRule>& rules);         // import_loss.cpp
void add_data_sized_rules(std::vector<OpRule>& rules);   // import_data_sized.cpp (NonZero, Compress, Unique, NMS)
void add_control_rules(std::vector<OpRule>& rules);      // import_control.cpp (If)
void add_loop_rules(std::vector<OpRule>& rules);         // import_loop.cpp

// The nodes of `graph` (the main graph or a subgraph whose outer names are visible), one rule each
// (onnx_importer.cpp).
void import_nodes(ImportContext& ctx, const ::onnx::GraphProto& graph);

const std::vector<OpRule>& import_rules();
// The rule for `op` at `opset`, or nullptr.
const OpRule* find_import_rule(const std::string& op, int64_t opset);

// LSTM with peepholes / GRU with linear_before_reset=0 over `x` (T, B, I), unrolled
// (import_recurrent_unrolled.cpp).
void import_recurrent_unrolled(ImportContext& ctx, const NodeView& node, bool lstm, const std::string& x,
                               bool batch_first);

// `value` filled into the shape held by tensor `shape` whose dims `dims` follow a data-sized axis
// (import_shape.cpp).
std::string fill_symbolic_shape(ImportContext& ctx, const std::string& shape, const SymValues& dims, float value,
                                const std::string& output = "");

// Values that follow run-time sizes computed when the graph runs: a (1,) tensor for one expression (Shape of a
// tensor of each size, then the functions its sums, products, minima, maxima and comparisons need), and `name`'s
// values so computed in its shape (`name` itself when it has no symbols) (op_rules.cpp).
std::string size_tensor(ImportContext& ctx, const Sym& s);
std::string run_time_values(ImportContext& ctx, const std::string& name);

// Inside a sub-graph a computed tensor's shape may change from one run to the next (a Loop body's per-iteration
// slice of a data-sized count), so Squeeze, Unsqueeze, Flatten and Reshape with 0 or -1 give their outputs dims
// read from the input's shape when they run, not the import-time stand-in's (reshape_at_run_time.cpp).
// Whether `x` is such a tensor (a sub-graph's, not constant, of rank > 0).
bool shape_follows_run(const ImportContext& ctx, const std::string& x);
// One output dim: the product of the input's dims [begin, end), a 1 when the range is empty.
struct DimRange {
  int64_t begin = 0, end = 0;
};
// `x` reshaped to `dims` of its shape when it runs.
std::string reshape_following_input(ImportContext& ctx, const std::string& x, const std::vector<DimRange>& dims,
                                    const std::string& output);

// Helpers shared by the families.
// Whether a Cast between ONNX element types keeps float values exact (no narrowing to half floats, no strings).
bool cast_keeps_values(int32_t from, int32_t to);
int64_t normalize_axis(int64_t axis, int64_t rank, const std::string& what = "axis");
// Reshape `name` to `rank` dims by prepending 1s (numpy broadcasting alignment); unchanged if already.
std::string align_rank(ImportContext& ctx, const std::string& name, int64_t rank);
// Reshape to `shape` unless it already has it.
std::string reshape_to(ImportContext& ctx, const std::string& name, const Shape& shape,
                       const std::string& output = "");
// Broadcast `name` to `shape` (aligning ranks first) unless it already has it.
std::string broadcast_to(ImportContext& ctx, const std::string& name, const Shape& shape);
// Numpy broadcast result of two shapes; throws naming the node when incompatible.
Shape broadcast_shapes(const Shape& a, const Shape& b);
// A float constant of the given shape filled with `value`.
std::string filled_constant(ImportContext& ctx, const Shape& shape, float value);
// The integer list held by input i when present and non-empty, else `fallback` (the attribute form).
std::vector<int64_t> ints_input_or(ImportContext& ctx, const NodeView& node, size_t i,
                                   const std::vector<int64_t>& fallback);

}  // namespace nn::formats::onnx
