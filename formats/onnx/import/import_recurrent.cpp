// ONNX LSTM / GRU / RNN -> nnabla's fused LSTM / GRU / RNN (one layer): gate reordering, W|R packing, layouts.
#include <algorithm>

#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

enum class Cell { kLstm, kGru, kRnn };

struct CellInfo {
  const char* type;
  int64_t gates;                    // ONNX gate blocks in W/R
  std::vector<int64_t> gate_order;  // ONNX gate block for each nnabla gate
  std::vector<std::string> default_activations;
};

CellInfo cell_info(Cell c) {
  switch (c) {
    case Cell::kLstm:  // ONNX i, o, f, c -> nnabla i, f, g, o
      return {"LSTM", 4, {0, 2, 3, 1}, {"Sigmoid", "Tanh", "Tanh"}};
    case Cell::kGru:  // ONNX z, r, h -> nnabla r, z, n
      return {"GRU", 3, {1, 0, 2}, {"Sigmoid", "Tanh"}};
    case Cell::kRnn: return {"RNN", 1, {0}, {"Tanh"}};
  }
  return {"RNN", 1, {0}, {"Tanh"}};
}

std::string gather_gates(ImportContext& ctx, const std::string& x, const std::vector<int64_t>& order,
                         int64_t axis) {
  bool identity = true;
  for (size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == int64_t(i);
  if (identity) return x;
  std::vector<float> v(order.begin(), order.end());
  const std::string idx = ctx.helper_name("");
  ctx.add_constant(idx, {int64_t(order.size())}, v, order, ::onnx::TensorProto::INT64);
  return ctx.emit1("Gather", {x, idx}, {{"axis", axis}, {"batch_dims", int64_t(0)}});
}

// Sequence lengths must all equal the sequence length (padding is not expressible with the fused layers).
void check_sequence_lens(ImportContext& ctx, const NodeView& node, int64_t seq) {
  if (node.input(4).empty()) return;
  NN_CHECK_CODE(ctx.is_constant(node.input(4)), ErrorCode::kUnsupported)
      << "sequence_lens must be a constant (all equal to the sequence length " << seq << ")";
  for (int64_t len : ctx.const_ints(node.input(4)))
    NN_CHECK_CODE(len == seq, ErrorCode::kUnsupported)
        << "sequence_lens " << len << " shorter than the sequence length " << seq << " is not supported";
}

// Zeros (1, D, B, H) for an absent initial state: a constant, or with a symbolic batch 0 * sum(x) over time and
// features broadcast (no constant may follow the batch size).
std::string zero_state(ImportContext& ctx, const std::string& x, int64_t D, int64_t H) {
  const int64_t B = ctx.shape(x)[1];
  if (!ctx.symbolic_batch()) return filled_constant(ctx, {1, D, B, H}, 0.0f);
  const std::string s = ctx.emit1("Sum", {x}, {{"axes", std::vector<int64_t>{0, 2}}, {"keep_dims", true}});
  const std::string z = reshape_to(ctx, ctx.emit1("MulScalar", {s}, {{"val", 0.0}}), {1, 1, B, 1});
  return ctx.emit1("Broadcast", {z}, {{"shape", std::vector<int64_t>{1, D, B, H}}});
}

void import_recurrent(ImportContext& ctx, const NodeView& node, Cell cell) {
  const CellInfo info = cell_info(cell);
  const bool batch_first = node.get_int("layout", 0) != 0;
  std::string x = node.input(0);
  if (batch_first) x = ctx.emit1("Transpose", {x}, {{"axes", std::vector<int64_t>{1, 0, 2}}});
  const Shape xs = ctx.shape(x);
  NN_CHECK(xs.size() == 3) << "X must be 3-D, got " << to_string(xs);
  const int64_t T = xs[0], B = xs[1], I = xs[2];
  const std::string direction = node.get_string("direction", "forward");
  NN_CHECK(direction == "forward" || direction == "reverse" || direction == "bidirectional")
      << "direction '" << direction << "' is not forward, reverse or bidirectional";
  const int64_t D = direction == "bidirectional" ? 2 : 1;
  const Shape ws = ctx.shape(node.input(1));
  NN_CHECK(ws.size() == 3 && ws[0] == D && ws[2] == I && ws[1] % info.gates == 0)
      << "W " << to_string(ws) << " does not match " << D << " direction(s) and input size " << I;
  const int64_t H = ws[1] / info.gates;
  NN_CHECK(node.get_int("hidden_size", H) == H)
      << "hidden_size " << node.get_int("hidden_size", H) << " does not match W " << to_string(ws);
  NN_CHECK(ctx.shape(node.input(2)) == Shape({D, info.gates * H, H}))
      << "R " << to_string(ctx.shape(node.input(2))) << " must be " << to_string(Shape{D, info.gates * H, H});
  // Variants the fused layers do not compute.
  NN_CHECK_CODE(!node.has("clip"), ErrorCode::kUnsupported) << "clip is not supported";
  NN_CHECK_CODE(node.get_int("input_forget", 0) == 0, ErrorCode::kUnsupported)
      << "input_forget=1 is not supported";
  std::string nonlinearity = "tanh";
  const std::vector<std::string> acts = [&] {
    std::vector<std::string> a;
    for (const auto& s : node.proto().attribute())
      if (s.name() == "activations")
        for (const auto& v : s.strings()) a.push_back(v);
    return a;
  }();
  for (size_t i = 0; i < acts.size(); ++i) {
    const std::string& want = info.default_activations[i % info.default_activations.size()];
    if (cell == Cell::kRnn && acts[i] == "Relu" && (i == 0 || nonlinearity == "relu")) {
      nonlinearity = "relu";
      continue;
    }
    NN_CHECK_CODE(acts[i] == want && nonlinearity == "tanh", ErrorCode::kUnsupported)
        << "activation '" << acts[i] << "' at position " << i << " is not supported (" << want << " expected)";
  }
  check_sequence_lens(ctx, node, T);
  // nnabla's GRU applies the reset gate after R h (linear_before_reset=1, as PyTorch) and its LSTM has no
  // peepholes: the other forms are unrolled over time.
  bool unrolled = cell == Cell::kGru && node.get_int("linear_before_reset", 0) == 0;
  if (cell == Cell::kLstm && !node.input(7).empty()) {
    unrolled = !ctx.is_constant(node.input(7));
    for (float p : unrolled ? std::vector<float>{} : ctx.const_values(node.input(7)))
      unrolled = unrolled || p != 0.0f;
  }
  if (unrolled) {
    import_recurrent_unrolled(ctx, node, cell == Cell::kLstm, x, batch_first);
    return;
  }

  // weight_l0 (D, gates, H, I + H) in nnabla's gate order.
  const int64_t G = info.gates;
  const std::string w = reshape_to(ctx, node.input(1), G == 1 ? Shape{D, H, I} : Shape{D, G, H, I});
  const std::string r = reshape_to(ctx, node.input(2), G == 1 ? Shape{D, H, H} : Shape{D, G, H, H});
  std::string weight = ctx.emit1("Concatenate", {w, r}, {{"axis", int64_t(G == 1 ? 2 : 3)}});
  if (G > 1) weight = gather_gates(ctx, weight, info.gate_order, 1);
  std::vector<std::string> inputs;
  // Bias: LSTM/RNN Wb + Rb per gate; GRU (r, z, Wb_n, Rb_n).
  std::string bias;
  if (!node.input(3).empty()) {
    const std::string b2 = reshape_to(ctx, node.input(3), {D, 2, G, H});
    if (cell == Cell::kGru) {
      const std::string sum = ctx.emit1("Sum", {b2}, {{"axes", std::vector<int64_t>{1}}, {"keep_dims", false}});
      const std::string rz = gather_gates(ctx, sum, {1, 0}, 1);  // (D, 2, H): r, z
      const auto slice_n = [&](int64_t k) {
        return ctx.emit1("Slice", {b2},
                         {{"start", std::vector<int64_t>{0, k, 2, 0}},
                          {"stop", std::vector<int64_t>{D, k + 1, 3, H}},
                          {"step", std::vector<int64_t>{1, 1, 1, 1}}});
      };
      const std::string nx = reshape_to(ctx, slice_n(0), {D, 1, H});
      const std::string nh = reshape_to(ctx, slice_n(1), {D, 1, H});
      bias = ctx.emit1("Concatenate", {rz, nx, nh}, {{"axis", int64_t(1)}});
      bias = reshape_to(ctx, bias, {1, D, 4, H});
    } else {
      bias = ctx.emit1("Sum", {b2}, {{"axes", std::vector<int64_t>{1}}, {"keep_dims", false}});
      if (G > 1) bias = gather_gates(ctx, bias, info.gate_order, 1);
      bias = reshape_to(ctx, bias, G == 1 ? Shape{1, D, H} : Shape{1, D, G, H});
    }
  }
  const auto state = [&](size_t index) {
    if (node.input(index).empty()) return zero_state(ctx, x, D, H);
    std::string s = node.input(index);
    if (batch_first) s = ctx.emit1("Transpose", {s}, {{"axes", std::vector<int64_t>{1, 0, 2}}});
    NN_CHECK(ctx.shape(s) == Shape({D, B, H})) << "initial state " << to_string(ctx.shape(node.input(index)))
                                               << " does not match (num_directions, batch, hidden)";
    return reshape_to(ctx, s, {1, D, B, H});
  };
  const bool reverse = direction == "reverse";
  if (reverse) x = ctx.emit1("Flip", {x}, {{"axes", std::vector<int64_t>{0}}});
  inputs.push_back(x);
  inputs.push_back(state(5));
  if (cell == Cell::kLstm) inputs.push_back(state(6));
  inputs.push_back(weight);
  if (!bias.empty()) inputs.push_back(bias);
  Attrs attrs{{"num_layers", int64_t(1)}, {"dropout", 0.0}, {"bidirectional", D == 2}, {"training", false}};
  if (cell == Cell::kRnn) attrs.set("nonlinearity", nonlinearity);
  const std::vector<std::string> outs = ctx.emit(info.type, inputs, attrs, {});
  // y (T, B, D*H) -> Y (T, D, B, H) or (B, T, D, H); h_n (1, D, B, H) -> (D, B, H) or (B, D, H).
  std::string y = outs[0];
  if (reverse) y = ctx.emit1("Flip", {y}, {{"axes", std::vector<int64_t>{0}}});
  if (!node.output(0).empty()) {
    y = reshape_to(ctx, y, {T, B, D, H});
    ctx.emit1("Transpose", {y},
              {{"axes", batch_first ? std::vector<int64_t>{1, 0, 2, 3} : std::vector<int64_t>{0, 2, 1, 3}}},
              node.output(0));
  }
  for (size_t k = 1; k < outs.size(); ++k) {
    if (node.output(k).empty()) continue;
    if (batch_first) {
      ctx.emit1("Transpose", {reshape_to(ctx, outs[k], {D, B, H})}, {{"axes", std::vector<int64_t>{1, 0, 2}}},
                node.output(k));
    } else {
      reshape_to(ctx, outs[k], {D, B, H}, node.output(k));
    }
  }
}

}  // namespace

void add_recurrent_rules(std::vector<OpRule>& rules) {
  rules.push_back(
      {"LSTM", 7, 17, [](ImportContext& c, const NodeView& n) { import_recurrent(c, n, Cell::kLstm); }});
  rules.push_back({"GRU", 7, 17, [](ImportContext& c, const NodeView& n) { import_recurrent(c, n, Cell::kGru); }});
  rules.push_back({"RNN", 7, 17, [](ImportContext& c, const NodeView& n) { import_recurrent(c, n, Cell::kRnn); }});
}

}  // namespace nn::formats::onnx
