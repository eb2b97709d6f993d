// OpSchema helpers and the schema builder.
#include "nn/ops/op_schema.hpp"

namespace nn {

int OpSchema::min_inputs() const {
  int n = 0;
  for (const auto& i : inputs) n += (i.optional || i.variadic) ? 0 : 1;
  return n;
}

int OpSchema::max_inputs() const {
  for (const auto& i : inputs)
    if (i.variadic) return -1;
  return int(inputs.size());
}

const ArgSpec* OpSchema::find_arg(const std::string& n) const {
  for (const auto& a : args)
    if (a.name == n) return &a;
  return nullptr;
}

namespace {
bool type_fits(AttrType t, const AttrValue& v) {
  switch (t) {
    case AttrType::kInt: return std::holds_alternative<int64_t>(v) || std::holds_alternative<bool>(v);
    case AttrType::kFloat:
    case AttrType::kDouble: return std::holds_alternative<double>(v) || std::holds_alternative<int64_t>(v);
    case AttrType::kBool: return std::holds_alternative<bool>(v) || std::holds_alternative<int64_t>(v);
    case AttrType::kString: return std::holds_alternative<std::string>(v);
    case AttrType::kShape:
    case AttrType::kInts: return std::holds_alternative<std::vector<int64_t>>(v);
    case AttrType::kFloats:
      return std::holds_alternative<std::vector<double>>(v) || std::holds_alternative<std::vector<int64_t>>(v);
    case AttrType::kCommunicator: return true;
  }
  return false;
}
}  // namespace

Attrs OpSchema::complete(const Attrs& given) const {
  Attrs out;
  for (const auto& [k, v] : given.values()) {
    const ArgSpec* a = find_arg(k);
    NN_CHECK(a != nullptr) << name << " has no argument '" << k << "'";
    NN_CHECK(type_fits(a->type, v)) << name << ": argument '" << k << "' should be " << attr_type_name(a->type)
                                    << ", got " << attr_to_string(v);
    out.set(k, v);
  }
  for (const auto& a : args)
    if (!out.has(a.name) && a.default_value) out.set(a.name, *a.default_value);
  return out;
}

SchemaBuilder::SchemaBuilder(std::string name, std::string category) {
  s_.name = std::move(name);
  s_.category = std::move(category);
}
SchemaBuilder& SchemaBuilder::doc(std::string d) {
  s_.doc = std::move(d);
  return *this;
}
SchemaBuilder& SchemaBuilder::in(std::string name) {
  s_.inputs.push_back({std::move(name), false, false, false});
  return *this;
}
SchemaBuilder& SchemaBuilder::in_param(std::string name) {
  s_.inputs.push_back({std::move(name), false, false, true});
  return *this;
}
SchemaBuilder& SchemaBuilder::in_optional(std::string name, bool parameter) {
  s_.inputs.push_back({std::move(name), true, false, parameter});
  return *this;
}
SchemaBuilder& SchemaBuilder::in_variadic(std::string name) {
  s_.inputs.push_back({std::move(name), false, true, false});
  return *this;
}
SchemaBuilder& SchemaBuilder::arg(std::string name, AttrType t, std::optional<AttrValue> def,
                                  std::string default_doc) {
  s_.args.push_back({std::move(name), t, std::move(def), std::move(default_doc)});
  return *this;
}
SchemaBuilder& SchemaBuilder::out(std::string name) {
  s_.outputs.push_back({std::move(name), false});
  return *this;
}
SchemaBuilder& SchemaBuilder::out_variadic(std::string name) {
  s_.outputs.push_back({std::move(name), true});
  return *this;
}
SchemaBuilder& SchemaBuilder::grad(GradGraphFn fn) {
  s_.grad_graph = std::move(fn);
  return *this;
}

}  // namespace nn
