// OpRegistry: explicit registration from ops.def, kernel lookup by backend with CPU fallback.
#include "nn/ops/op_registry.hpp"

#include <mutex>

namespace nn {
namespace ops {
#define NN_OP(Type, snake) void register_##snake(OpRegistry&);
#include "nn/ops/ops.def"
#undef NN_OP
}  // namespace ops

OpRegistry& OpRegistry::instance() {
  static OpRegistry* reg = [] {
    auto* r = new OpRegistry();
#define NN_OP(Type, snake) ops::register_##snake(*r);
#include "nn/ops/ops.def"
#undef NN_OP
    // The snake_case name is a fact of the inventory: every schema takes it from its ops.def line.
#define NN_OP(Type, snake) r->schemas_.at(#Type).snake_name = #snake;
#include "nn/ops/ops.def"
#undef NN_OP
    // The CUDA backend adds its kernels when it is loaded (load_gpu_backend): they reuse these schemas.
    return r;
  }();
  return *reg;
}

void OpRegistry::add_schema(OpSchema schema) {
  auto name = schema.name;
  schemas_[name] = std::move(schema);
}

void OpRegistry::add_kernel(const std::string& op, const std::string& backend, const std::string& type_config,
                            FunctionFactory factory) {
  kernels_[op][backend + ":" + type_config] = std::move(factory);
}

const OpSchema* OpRegistry::find(const std::string& op) const {
  auto it = schemas_.find(op);
  return it == schemas_.end() ? nullptr : &it->second;
}

const OpSchema& OpRegistry::get(const std::string& op) const {
  const OpSchema* s = find(op);
  NN_CHECK_CODE(s != nullptr, ErrorCode::kUnsupported) << "unknown function type '" << op << "'";
  return *s;
}

std::vector<std::string> OpRegistry::names() const {
  std::vector<std::string> n;
  for (const auto& [k, v] : schemas_) n.push_back(k);
  return n;
}

std::vector<std::string> OpRegistry::kernels(const std::string& op) const {
  std::vector<std::string> r;
  auto it = kernels_.find(op);
  if (it != kernels_.end())
    for (const auto& [k, v] : it->second) r.push_back(k);
  return r;
}

FunctionPtr OpRegistry::create(const std::string& op, const Attrs& attrs, const Context& ctx) const {
  const OpSchema& s = get(op);
  Attrs full = s.complete(attrs);
  auto it = kernels_.find(op);
  NN_CHECK_CODE(it != kernels_.end(), ErrorCode::kUnsupported) << "function " << op << " has no kernel";
  const auto backends = ctx.parsed_backends();
  for (const auto& be : backends) {
    auto k = it->second.find(be.name + ":" + be.type_config);
    if (k != it->second.end()) return k->second(s, ctx, full);
  }
  // A half context runs ops without a half kernel on the same device in float (arrays convert there)
  // before falling back to the CPU, as nnabla's cudnn:half keeps float-only functions on the GPU.
  for (const auto& be : backends) {
    if (be.name == "cpu" || be.type_config == "float") continue;
    auto k = it->second.find(be.name + ":float");
    if (k != it->second.end()) return k->second(s, ctx, full);
  }
  auto cpu = it->second.find("cpu:float");
  NN_CHECK_CODE(cpu != it->second.end(), ErrorCode::kUnsupported)
      << "function " << op << " has no kernel for " << ctx.to_string();
  return cpu->second(s, cpu_context(), full);
}

}  // namespace nn
