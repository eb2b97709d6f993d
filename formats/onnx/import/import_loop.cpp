// ONNX Loop as nncli's Loop function, its body a sub-network run per iteration (ops/special/loop.cpp).
#include "formats/onnx/import/import_subgraph.hpp"
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

// Loop(M, cond, v_initial...) -> (v_final..., scan_outputs...); body(iteration_num, cond, v...) -> (cond, v...,
// scans...). An absent M or cond becomes a placeholder the function does not read (has_trip_count,
// has_condition).
void import_loop(ImportContext& ctx, const NodeView& node) {
  const ::onnx::GraphProto& body = graph_attribute(node, "body");
  NN_CHECK(node.num_inputs() >= 2) << "Loop needs M and cond (either may be an empty name)";
  const size_t carried = node.num_inputs() - 2;
  NN_CHECK(size_t(body.input_size()) == carried + 2)
      << "the body has " << body.input_size() << " inputs, the node " << carried << " carried values (+2)";
  NN_CHECK(size_t(body.output_size()) >= carried + 1)
      << "the body has " << body.output_size() << " outputs, fewer than its " << carried << " carried values (+1)";
  const size_t scans = size_t(body.output_size()) - 1 - carried;
  NN_CHECK(node.num_outputs() <= carried + scans)
      << "the node has " << node.num_outputs() << " outputs, the body gives " << carried + scans;
  const bool has_trip = !node.input(0).empty(), has_cond = !node.input(1).empty();
  std::vector<SubGraphInput> own{{body.input(0).name(), {}, ::onnx::TensorProto::INT64},
                                 {body.input(1).name(), {}, ::onnx::TensorProto::BOOL}};
  for (size_t k = 0; k < carried; ++k) {
    const std::string& v = node.input(2 + k);
    NN_CHECK_CODE(!v.empty(), ErrorCode::kUnsupported) << "carried value " << k << " is absent (optional)";
    own.push_back({body.input(int(2 + k)).name(), ctx.shape(v), ctx.data_type(v)});
  }
  const ImportedSubGraph g = import_subgraph(ctx, body, own);
  // Values that follow run-time sizes (a trip count of one per detection) are computed when the graph runs.
  std::vector<std::string> inputs{has_trip ? run_time_values(ctx, node.input(0)) : ctx.constant({}, {0.f}),
                                  has_cond ? run_time_values(ctx, node.input(1)) : ctx.constant({}, {1.f})};
  for (size_t k = 0; k < carried; ++k) inputs.push_back(run_time_values(ctx, node.input(2 + k)));
  inputs.insert(inputs.end(), g.outer_inputs.begin(), g.outer_inputs.end());
  std::vector<std::string> outputs;
  for (size_t j = 0; j < carried + scans; ++j) outputs.push_back(node.output(j));
  outputs = ctx.emit("Loop", inputs,
                     {{"num_carried", int64_t(carried)},
                      {"num_scan", int64_t(scans)},
                      {"has_trip_count", has_trip},
                      {"has_condition", has_cond}},
                     outputs, /*fold=*/false, {g.net});
  for (size_t j = 0; j < outputs.size(); ++j) ctx.set_data_type(outputs[j], g.output_types[1 + j]);
  // A carried value whose shape the body changes (one that grows each iteration) is sized at run time along the
  // first axis that changed, or the body's own data-sized axis.
  for (size_t k = 0; k < carried; ++k) {
    const Shape &before = own[2 + k].shape, &after = g.output_shapes[1 + k];
    int64_t axis = g.output_data_axes[1 + k];
    for (size_t d = 0; d < after.size() && axis < 0; ++d)
      if (before.size() != after.size() || before[d] != after[d]) axis = int64_t(d);
    if (axis >= 0) ctx.set_data_axis(outputs[k], axis, ctx.fresh_size());
  }
}

}  // namespace

void add_loop_rules(std::vector<OpRule>& rules) { rules.push_back({"Loop", 1, 17, import_loop}); }

}  // namespace nn::formats::onnx
