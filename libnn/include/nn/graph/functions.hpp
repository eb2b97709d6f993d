// Building graphs in C++: call any registered function by type, plus typed helpers for common ones.
#pragma once
#include <string>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/ops/attributes.hpp"

namespace nn {

// Default context used by call() when none is given (settable, e.g. by -C).
const Context& default_context();
void set_default_context(const Context& ctx);

std::vector<VariablePtr> call(const std::string& type, const std::vector<VariablePtr>& inputs,
                              const Attrs& attrs = {}, const Context& ctx = default_context());
VariablePtr call1(const std::string& type, const std::vector<VariablePtr>& inputs, const Attrs& attrs = {},
                  const Context& ctx = default_context());

namespace F {
inline VariablePtr identity(const VariablePtr& x) { return call1("Identity", {x}); }
inline VariablePtr add2(const VariablePtr& a, const VariablePtr& b) { return call1("Add2", {a, b}); }
inline VariablePtr sub2(const VariablePtr& a, const VariablePtr& b) { return call1("Sub2", {a, b}); }
inline VariablePtr mul2(const VariablePtr& a, const VariablePtr& b) { return call1("Mul2", {a, b}); }
inline VariablePtr div2(const VariablePtr& a, const VariablePtr& b) { return call1("Div2", {a, b}); }
inline VariablePtr add_scalar(const VariablePtr& x, double v) { return call1("AddScalar", {x}, {{"val", v}}); }
inline VariablePtr mul_scalar(const VariablePtr& x, double v) { return call1("MulScalar", {x}, {{"val", v}}); }
inline VariablePtr pow_scalar(const VariablePtr& x, double v) { return call1("PowScalar", {x}, {{"val", v}}); }
inline VariablePtr sin(const VariablePtr& x) { return call1("Sin", {x}); }
inline VariablePtr cos(const VariablePtr& x) { return call1("Cos", {x}); }
inline VariablePtr exp(const VariablePtr& x) { return call1("Exp", {x}); }
inline VariablePtr log(const VariablePtr& x) { return call1("Log", {x}); }
inline VariablePtr sum(const VariablePtr& x, std::vector<int64_t> axes, bool keep_dims = false) {
  return call1("Sum", {x}, {{"axes", axes}, {"keep_dims", keep_dims}});
}
inline VariablePtr reshape(const VariablePtr& x, std::vector<int64_t> shape) {
  return call1("Reshape", {x}, {{"shape", shape}, {"inplace", true}});
}
}  // namespace F

}  // namespace nn
