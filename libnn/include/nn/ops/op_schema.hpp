// OpSchema: written once per function: name, inputs, typed arguments with defaults, outputs, gradient.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "nn/graph/function.hpp"
#include "nn/ops/attributes.hpp"

namespace nn {

class Variable;
using VariablePtr = std::shared_ptr<Variable>;

struct InputSpec {
  std::string name;
  bool optional = false;   // may be omitted (only trailing inputs)
  bool variadic = false;   // any number (Concatenate, Stack, Add2N ...)
  bool parameter = false;  // usually a learnable parameter (W, b, gamma ...)
};

struct ArgSpec {
  std::string name;
  AttrType type;
  std::optional<AttrValue> default_value;  // absent: required, or depends on the inputs (see doc)
  std::string default_doc;                 // e.g. "last axis", "kernel"
};

struct OutputSpec {
  std::string name;
  bool variadic = false;
};

// Builds the gradient of a function as new graph nodes (for nn::grad and higher-order gradients).
// grad_outputs[o] may be null (no gradient flows from output o). Returns one entry per input (null: none).
struct GradGraphArgs {
  const std::vector<VariablePtr>& inputs;
  const std::vector<VariablePtr>& outputs;
  const std::vector<VariablePtr>& grad_outputs;
  const Attrs& attrs;
  const Context& ctx;
};
using GradGraphFn = std::function<std::vector<VariablePtr>(const GradGraphArgs&)>;

using FunctionFactory = std::function<FunctionPtr(const OpSchema&, const Context&, const Attrs&)>;

struct OpSchema {
  std::string name;        // nnabla function type, e.g. "Convolution"
  std::string snake_name;  // from ops.def, e.g. "batch_normalization" (set when the registry is filled)
  std::string category;    // functions.yaml category, e.g. "Neural Network Layer"
  std::string doc;         // one line
  std::vector<InputSpec> inputs;
  std::vector<ArgSpec> args;
  std::vector<OutputSpec> outputs;
  GradGraphFn grad_graph;  // optional: enables higher-order gradients through this function

  int min_inputs() const;
  int max_inputs() const;  // -1 = unbounded
  const ArgSpec* find_arg(const std::string& n) const;
  // Fills absent arguments with their defaults and checks types; throws naming an unknown argument.
  Attrs complete(const Attrs& given) const;
};

// Convenience builder used by op files: schema("Affine", "Neural Network Layer").in("x").in("weight", ...)
class SchemaBuilder {
 public:
  SchemaBuilder(std::string name, std::string category);
  SchemaBuilder& doc(std::string d);
  SchemaBuilder& in(std::string name);
  SchemaBuilder& in_param(std::string name);
  SchemaBuilder& in_optional(std::string name, bool parameter = false);
  SchemaBuilder& in_variadic(std::string name);
  SchemaBuilder& arg(std::string name, AttrType t, std::optional<AttrValue> def = std::nullopt,
                     std::string default_doc = "");
  SchemaBuilder& out(std::string name);
  SchemaBuilder& out_variadic(std::string name);
  SchemaBuilder& grad(GradGraphFn fn);
  OpSchema build() { return std::move(s_); }

 private:
  OpSchema s_;
};

}  // namespace nn
