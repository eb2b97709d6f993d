// Symbolic sizes: construction, canonical text, the zero implication and folding through nnabla functions.
#include "formats/onnx/import/symbolic_size.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace nn::formats::onnx {

using Kind = SymExpr::Kind;

Sym sym_const(int64_t v) {
  auto s = std::make_shared<SymExpr>();
  s->kind = Kind::kConst;
  s->value = v;
  return s;
}

Sym sym_atom(int64_t id) {
  auto s = std::make_shared<SymExpr>();
  s->kind = Kind::kAtom;
  s->value = id;
  return s;
}

Sym sym_unknown() {
  auto s = std::make_shared<SymExpr>();
  s->kind = Kind::kUnknown;
  return s;
}

bool sym_is_const(const Sym& s) { return s->kind == Kind::kConst; }

Sym sym_op(Kind kind, std::vector<Sym> args) {
  std::vector<Sym> flat;
  bool have_const = false;
  int64_t c = 0;
  for (const Sym& a : args) {
    if (a->kind == Kind::kUnknown) return a;
    if (kind != Kind::kEq && a->kind == kind) {
      flat.insert(flat.end(), a->args.begin(), a->args.end());
      continue;
    }
    flat.push_back(a);
  }
  if (kind == Kind::kEq) {
    if (flat.size() == 2 && sym_is_const(flat[0]) && sym_is_const(flat[1]))
      return sym_const(flat[0]->value == flat[1]->value ? 1 : 0);
    for (size_t i = 0; i < flat.size() && flat.size() == 2; ++i)  // sizes are never negative
      if (sym_is_const(flat[i]) && flat[i]->value < 0) return sym_const(0);
    if (flat.size() == 2 && sym_text(flat[0]) == sym_text(flat[1])) return sym_const(1);
    auto s = std::make_shared<SymExpr>();
    s->kind = kind;
    s->args = std::move(flat);
    return s;
  }
  std::vector<Sym> rest;
  for (const Sym& a : flat) {
    if (!sym_is_const(a)) {
      rest.push_back(a);
      continue;
    }
    const int64_t v = a->value;
    if (!have_const) {
      c = v;
      have_const = true;
    } else if (kind == Kind::kAdd) {
      c += v;
    } else if (kind == Kind::kMul) {
      c *= v;
    } else if (kind == Kind::kMin) {
      c = std::min(c, v);
    } else {
      c = std::max(c, v);
    }
  }
  if (have_const && kind == Kind::kMul && c == 0) return sym_const(0);
  // Neutral constants drop out: x + 0, x * 1, max(x, 0) (sizes are non-negative).
  const bool neutral =
      (kind == Kind::kAdd && c == 0) || (kind == Kind::kMul && c == 1) || (kind == Kind::kMax && c <= 0);
  if (have_const && (!neutral || rest.empty())) rest.push_back(sym_const(c));
  if (rest.size() == 1) return rest.front();
  std::sort(rest.begin(), rest.end(), [](const Sym& a, const Sym& b) { return sym_text(a) < sym_text(b); });
  auto s = std::make_shared<SymExpr>();
  s->kind = kind;
  s->args = std::move(rest);
  return s;
}

std::string sym_text(const Sym& s) {
  switch (s->kind) {
    case Kind::kConst: return std::to_string(s->value);
    case Kind::kAtom: return "#" + std::to_string(s->value);
    case Kind::kUnknown: return "?";
    default: break;
  }
  const char* name = s->kind == Kind::kAdd   ? "add"
                     : s->kind == Kind::kMul ? "mul"
                     : s->kind == Kind::kMin ? "min"
                     : s->kind == Kind::kMax ? "max"
                                             : "eq";
  std::string text = std::string(name) + "(";
  for (size_t i = 0; i < s->args.size(); ++i) text += (i ? ", " : "") + sym_text(s->args[i]);
  return text + ")";
}

bool sym_equal(const Sym& a, const Sym& b) { return sym_text(a) == sym_text(b); }

namespace {

// The atoms that `s` == 0 forces to 0 (sums and maxima of non-negative terms: every term; a product or minimum
// with non-zero constants besides one term: that term).
void forced_zero(const Sym& s, std::set<int64_t>& atoms) {
  switch (s->kind) {
    case Kind::kAtom: atoms.insert(s->value); return;
    case Kind::kAdd:
    case Kind::kMax:
      for (const Sym& a : s->args) forced_zero(a, atoms);
      return;
    case Kind::kMul:
    case Kind::kMin: {
      std::vector<Sym> open;
      for (const Sym& a : s->args)
        if (!sym_is_const(a) || a->value == 0) open.push_back(a);
      if (open.size() == 1) forced_zero(open.front(), atoms);
      return;
    }
    default: return;
  }
}

bool is_zero(const Sym& s, const std::set<int64_t>& atoms, const AtomBounds& bounds, int depth) {
  if (depth > 64) return false;
  switch (s->kind) {
    case Kind::kConst: return s->value == 0;
    case Kind::kAtom: {
      if (atoms.count(s->value)) return true;
      const size_t id = size_t(s->value);
      return id < bounds.size() && bounds[id] && is_zero(bounds[id], atoms, bounds, depth + 1);
    }
    case Kind::kAdd:
    case Kind::kMax:
      return std::all_of(s->args.begin(), s->args.end(),
                         [&](const Sym& a) { return is_zero(a, atoms, bounds, depth + 1); });
    case Kind::kMul:
    case Kind::kMin:
      return std::any_of(s->args.begin(), s->args.end(),
                         [&](const Sym& a) { return is_zero(a, atoms, bounds, depth + 1); });
    default: return false;
  }
}

}  // namespace

bool zero_whenever_zero(const Sym& condition, const Sym& target, const AtomBounds& bounds) {
  std::set<int64_t> atoms;
  forced_zero(condition, atoms);
  return is_zero(target, atoms, bounds, 0);
}

bool has_symbols(const SymValues& v) {
  return std::any_of(v.begin(), v.end(), [](const Sym& s) { return !sym_is_const(s); });
}

namespace {

// Input k's element i as a symbol (a plain constant when the input has none).
Sym element(const SymFold& f, size_t k, int64_t i) {
  if (!f.in_syms[k].empty()) return f.in_syms[k][size_t(i)];
  return sym_const(int64_t(std::llround(f.in_values[k][size_t(i)])));
}

// The flat index of input shape `in` read by output element `o` of shape `out` under numpy broadcasting.
int64_t broadcast_index(const Shape& in, const Shape& out, int64_t o) {
  int64_t index = 0, stride = 1;
  for (size_t d = 0; d < out.size(); ++d) {
    const size_t od = out.size() - 1 - d;
    const int64_t coord = o % out[od];
    o /= out[od];
    if (d < in.size()) {
      const int64_t n = in[in.size() - 1 - d];
      index += (n == 1 ? 0 : coord) * stride;
      stride *= n;
    }
  }
  return index;
}

bool one_of(const std::string& t, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (t == n) return true;
  return false;
}

Kind kind_of(const std::string& t) {
  if (one_of(t, {"Add2", "AddScalar", "Sum"})) return Kind::kAdd;
  if (one_of(t, {"Mul2", "MulScalar", "Prod"})) return Kind::kMul;
  if (one_of(t, {"Minimum2", "MinimumScalar", "Min"})) return Kind::kMin;
  if (one_of(t, {"Maximum2", "MaximumScalar", "Max"})) return Kind::kMax;
  if (one_of(t, {"Equal", "EqualScalar"})) return Kind::kEq;
  return Kind::kUnknown;
}

}  // namespace

SymValues fold_symbols(const SymFold& f, const RunFn& run) {
  const int64_t n = shape_size(f.out_shape);
  const Kind kind = kind_of(f.type);
  if (kind != Kind::kUnknown) {
    SymValues out;
    const bool scalar = f.type.size() > 6 && f.type.compare(f.type.size() - 6, 6, "Scalar") == 0;
    const bool reduce = one_of(f.type, {"Sum", "Prod", "Min", "Max"});
    if (reduce) {
      if (n != 1) return SymValues(size_t(n), sym_unknown());  // only whole reductions are followed
      std::vector<Sym> args;
      for (int64_t i = 0; i < shape_size(f.in_shapes[0]); ++i) args.push_back(element(f, 0, i));
      return {sym_op(kind, args)};
    }
    for (int64_t o = 0; o < n; ++o) {
      std::vector<Sym> args;
      for (size_t k = 0; k < f.in_shapes.size(); ++k)
        args.push_back(element(f, k, broadcast_index(f.in_shapes[k], f.out_shape, o)));
      if (scalar) {
        const double v = f.scalar;
        if (v != std::nearbyint(v)) return SymValues(size_t(n), sym_unknown());
        args.push_back(sym_const(int64_t(v)));
      }
      out.push_back(sym_op(kind, args));
    }
    return out;
  }
  if (f.type == "Where" && f.in_shapes.size() == 3) {  // a known condition picks an element
    SymValues out;
    for (int64_t o = 0; o < n; ++o) {
      const Sym c = element(f, 0, broadcast_index(f.in_shapes[0], f.out_shape, o));
      const size_t pick = c->value != 0 ? 1 : 2;
      out.push_back(sym_is_const(c) ? element(f, pick, broadcast_index(f.in_shapes[pick], f.out_shape, o))
                                    : sym_unknown());
    }
    return out;
  }
  // Data movement: run the function on coded positions (input k's element i is (k + 1) * 2^16 + i).
  static const char* const kMoves[] = {"Reshape",   "Concatenate", "Slice",    "Gather", "GatherNd", "Transpose",
                                       "Broadcast", "BroadcastTo", "Identity", "Tile",   "Stack",    "Flip"};
  const bool moves = std::any_of(std::begin(kMoves), std::end(kMoves), [&](const char* t) { return f.type == t; });
  constexpr int64_t kCode = int64_t(1) << 16;
  bool codable = moves && f.in_shapes.size() < 250;
  for (const Shape& s : f.in_shapes) codable = codable && shape_size(s) < kCode;
  if (!codable) return SymValues(size_t(n), sym_unknown());
  std::vector<std::vector<float>> coded = f.in_values;
  for (size_t k = 0; k < coded.size(); ++k) {
    // Gather's and GatherNd's indices and BroadcastTo's shape source stay as they are.
    const bool data =
        !((f.type == "Gather" || f.type == "GatherNd") && k == 1) && !(f.type == "BroadcastTo" && k == 0);
    if (!data) continue;
    for (size_t i = 0; i < coded[k].size(); ++i) coded[k][i] = float(int64_t(k + 1) * kCode + int64_t(i));
  }
  const std::vector<float> values = run(coded);
  SymValues out;
  for (float v : values) {
    const int64_t code = int64_t(v);
    const int64_t k = code / kCode - 1, i = code % kCode;
    if (float(code) != v || k < 0 || size_t(k) >= f.in_shapes.size() || i >= shape_size(f.in_shapes[size_t(k)])) {
      out.push_back(sym_unknown());
      continue;
    }
    out.push_back(element(f, size_t(k), i));
  }
  return out;
}

}  // namespace nn::formats::onnx
