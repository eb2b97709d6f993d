// ONNX LSTM with peepholes and GRU with linear_before_reset=0, which nnabla's fused cells do not compute: unrolled
// over time.
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

std::string slice(ImportContext& ctx, const std::string& x, std::vector<int64_t> start,
                  std::vector<int64_t> stop) {
  return ctx.emit1("Slice", {x},
                   {{"start", start}, {"stop", stop}, {"step", std::vector<int64_t>(start.size(), 1)}});
}

// Columns [from, to) of a 2-D (rows, n) tensor.
std::string columns(ImportContext& ctx, const std::string& x, int64_t from, int64_t to) {
  return slice(ctx, x, {0, from}, {ctx.shape(x)[0], to});
}

std::string add(ImportContext& ctx, const std::string& a, const std::string& b) {
  return ctx.emit1("Add2", {a, b});
}
std::string mul(ImportContext& ctx, const std::string& a, const std::string& b) {
  return ctx.emit1("Mul2", {a, b});
}

}  // namespace

void import_recurrent_unrolled(ImportContext& ctx, const NodeView& node, bool lstm, const std::string& x,
                               bool batch_first) {
  const Shape xs = ctx.shape(x);  // (T, B, I)
  const int64_t T = xs[0], B = xs[1], I = xs[2];
  const Shape ws = ctx.shape(node.input(1));
  const int64_t D = ws[0], G = lstm ? 4 : 3, H = ws[1] / G;
  const std::string direction = node.get_string("direction", "forward");
  const auto per_direction = [&](const std::string& name, int64_t d, const Shape& inner) {
    std::vector<int64_t> start{d}, stop{d + 1};
    for (int64_t n : inner) start.push_back(0), stop.push_back(n);
    return reshape_to(ctx, slice(ctx, name, start, stop), inner);
  };
  const auto state0 = [&](size_t index, int64_t d) {
    if (node.input(index).empty()) return filled_constant(ctx, {B, H}, 0.0f);
    std::string s = node.input(index);
    if (batch_first) s = ctx.emit1("Transpose", {s}, {{"axes", std::vector<int64_t>{1, 0, 2}}});
    return per_direction(s, d, {B, H});
  };
  const std::string flat_x = reshape_to(ctx, x, {T * B, I});
  std::vector<std::string> ys, hs, cs;
  for (int64_t d = 0; d < D; ++d) {
    const std::string wt = ctx.emit1("Transpose", {per_direction(node.input(1), d, {G * H, I})},
                                     {{"axes", std::vector<int64_t>{1, 0}}});
    const std::string rt = ctx.emit1("Transpose", {per_direction(node.input(2), d, {G * H, H})},
                                     {{"axes", std::vector<int64_t>{1, 0}}});
    std::string wb, rb;
    if (!node.input(3).empty()) {
      const std::string b = per_direction(node.input(3), d, {2 * G * H});
      wb = reshape_to(ctx, slice(ctx, b, {0}, {G * H}), {1, G * H});
      rb = reshape_to(ctx, slice(ctx, b, {G * H}, {2 * G * H}), {1, G * H});
    }
    std::string xw = ctx.emit1("Affine", {flat_x, wt}, {{"base_axis", int64_t(1)}});
    if (!wb.empty()) xw = add(ctx, xw, wb);
    xw = reshape_to(ctx, xw, {T, B, G * H});
    std::string p;
    if (lstm && !node.input(7).empty()) p = per_direction(node.input(7), d, {3 * H});
    const auto peephole = [&](int64_t k) {
      return reshape_to(ctx, slice(ctx, p, {k * H}, {(k + 1) * H}), {1, H});
    };
    std::string h = state0(5, d), c = lstm ? state0(6, d) : "";
    std::vector<std::string> steps(static_cast<size_t>(T));
    const bool reverse = direction == "reverse" || d == 1;
    for (int64_t s = 0; s < T; ++s) {
      const int64_t t = reverse ? T - 1 - s : s;
      const std::string xt = reshape_to(ctx, slice(ctx, xw, {t, 0, 0}, {t + 1, B, G * H}), {B, G * H});
      if (lstm) {  // gates i, o, f, c
        std::string g = add(ctx, xt, ctx.emit1("Affine", {h, rt}, {{"base_axis", int64_t(1)}}));
        if (!rb.empty()) g = add(ctx, g, rb);
        const auto gate = [&](int64_t k) { return columns(ctx, g, k * H, (k + 1) * H); };
        std::string gi = gate(0), go = gate(1), gf = gate(2);
        if (!p.empty()) gi = add(ctx, gi, mul(ctx, c, peephole(0))), gf = add(ctx, gf, mul(ctx, c, peephole(2)));
        const std::string i = ctx.emit1("Sigmoid", {gi}), f = ctx.emit1("Sigmoid", {gf});
        c = add(ctx, mul(ctx, f, c), mul(ctx, i, ctx.emit1("Tanh", {gate(3)})));
        if (!p.empty()) go = add(ctx, go, mul(ctx, c, peephole(1)));
        h = mul(ctx, ctx.emit1("Sigmoid", {go}), ctx.emit1("Tanh", {c}));
      } else {  // gates z, r, h; the reset gate applied to h before R
        std::string zr = add(ctx, columns(ctx, xt, 0, 2 * H),
                             ctx.emit1("Affine", {h, columns(ctx, rt, 0, 2 * H)}, {{"base_axis", int64_t(1)}}));
        if (!rb.empty()) zr = add(ctx, zr, columns(ctx, rb, 0, 2 * H));
        zr = ctx.emit1("Sigmoid", {zr});
        const std::string z = columns(ctx, zr, 0, H), r = columns(ctx, zr, H, 2 * H);
        std::string hh = add(
            ctx, columns(ctx, xt, 2 * H, 3 * H),
            ctx.emit1("Affine", {mul(ctx, r, h), columns(ctx, rt, 2 * H, 3 * H)}, {{"base_axis", int64_t(1)}}));
        if (!rb.empty()) hh = add(ctx, hh, columns(ctx, rb, 2 * H, 3 * H));
        hh = ctx.emit1("Tanh", {hh});
        h = add(ctx, hh, mul(ctx, z, ctx.emit1("Sub2", {h, hh})));  // (1 - z) hh + z h
      }
      steps[size_t(t)] = h;
    }
    ys.push_back(ctx.emit1("Stack", steps, {{"axis", int64_t(0)}}));  // (T, B, H)
    hs.push_back(h);
    if (lstm) cs.push_back(c);
  }
  if (!node.output(0).empty()) {
    const std::string y = ctx.emit1("Stack", ys, {{"axis", int64_t(1)}});  // (T, D, B, H)
    if (batch_first)
      ctx.emit1("Transpose", {y}, {{"axes", std::vector<int64_t>{2, 0, 1, 3}}}, node.output(0));
    else
      ctx.emit1("Identity", {y}, {}, node.output(0));
  }
  for (size_t k = 1; k <= (lstm ? 2u : 1u); ++k) {
    if (node.output(k).empty()) continue;
    const std::string st = ctx.emit1("Stack", k == 1 ? hs : cs, {{"axis", int64_t(0)}});  // (D, B, H)
    if (batch_first)
      ctx.emit1("Transpose", {st}, {{"axes", std::vector<int64_t>{1, 0, 2}}}, node.output(k));
    else
      ctx.emit1("Identity", {st}, {}, node.output(k));
  }
}

}  // namespace nn::formats::onnx
