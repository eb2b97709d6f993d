// Import-time values that follow run-time sizes: expressions over the lengths of data-sized axes.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"

namespace nn::formats::onnx {

// A value known at import only as an expression of run-time sizes: a constant, the length of a data-sized axis
// (an atom: NonZero's count, what a Slice of it keeps...), sums, products, minima and maxima of those, or the
// comparison a == b (1 or 0). Every size is non-negative. kUnknown: computed by something the importer cannot
// follow (a Sub2, a Div2...): a value that must not be used as if it were known.
struct SymExpr;
using Sym = std::shared_ptr<const SymExpr>;
struct SymExpr {
  enum class Kind { kConst, kAtom, kAdd, kMul, kMin, kMax, kEq, kUnknown };
  Kind kind = Kind::kConst;
  int64_t value = 0;  // kConst: the value; kAtom: the atom's id
  std::vector<Sym> args;
};

Sym sym_const(int64_t v);
Sym sym_atom(int64_t id);
Sym sym_unknown();
// An n-ary operation, constants folded and nested operations of the same kind flattened.
Sym sym_op(SymExpr::Kind kind, std::vector<Sym> args);
bool sym_is_const(const Sym& s);
// Canonical text ("min(300, #4)"): equal texts, equal values.
std::string sym_text(const Sym& s);
bool sym_equal(const Sym& a, const Sym& b);

// The atoms' upper bounds (nullptr: none); an atom is 0 when its bound is.
using AtomBounds = std::vector<Sym>;
// Whether `target` is 0 whenever `condition` is 0 (all atoms non-negative).
bool zero_whenever_zero(const Sym& condition, const Sym& target, const AtomBounds& bounds);

// A small integer tensor whose elements are (some of them) symbolic; empty when every element is a constant.
using SymValues = std::vector<Sym>;
// True when some element is not a constant.
bool has_symbols(const SymValues& v);

// The symbolic result of nnabla function `type` folded at import over inputs with symbolic values (`in_syms[k]`
// empty: input k is a plain constant holding `in_values[k]`). `run` computes the function on other values of the
// same shapes (the data-movement functions are traced by running them on coded positions). Returns all-unknown
// elements for functions it cannot follow.
struct SymFold {
  std::string type;
  double scalar = 0;  // the `val` argument of *Scalar functions
  std::vector<Shape> in_shapes;
  std::vector<std::vector<float>> in_values;
  std::vector<SymValues> in_syms;
  Shape out_shape;
};
using RunFn = std::function<std::vector<float>(const std::vector<std::vector<float>>& inputs)>;
SymValues fold_symbols(const SymFold& f, const RunFn& run);

}  // namespace nn::formats::onnx
