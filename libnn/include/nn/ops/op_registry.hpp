// OpRegistry: schemas and kernels by (function, backend), filled explicitly from ops.def.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "nn/ops/op_schema.hpp"

namespace nn {

class OpRegistry {
 public:
  static OpRegistry& instance();  // registered from ops.def on first use

  void add_schema(OpSchema schema);
  // backend: "cpu", "cuda", "cudnn"; type_config: "float", "half".
  void add_kernel(const std::string& op, const std::string& backend, const std::string& type_config,
                  FunctionFactory factory);

  const OpSchema* find(const std::string& op) const;
  const OpSchema& get(const std::string& op) const;  // throws "unknown function type 'X'"
  std::vector<std::string> names() const;            // sorted
  // Backends with a kernel for op, e.g. {"cpu:float", "cuda:float"}.
  std::vector<std::string> kernels(const std::string& op) const;

  // Creates the first kernel that ctx's backend list offers; falls back to cpu:float.
  FunctionPtr create(const std::string& op, const Attrs& attrs, const Context& ctx) const;

 private:
  OpRegistry() = default;
  std::map<std::string, OpSchema> schemas_;
  std::map<std::string, std::map<std::string, FunctionFactory>> kernels_;  // op -> "backend:type" -> f
};

// Factory helper for a Function subclass whose constructor is (schema, ctx, attrs).
template <class F>
FunctionFactory make_factory() {
  return [](const OpSchema& s, const Context& c, const Attrs& a) -> FunctionPtr {
    return std::make_shared<F>(s, c, a);
  };
}

}  // namespace nn
