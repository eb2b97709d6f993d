// call(): create a registered function and connect it.
#include "nn/graph/functions.hpp"

#include "nn/ops/op_registry.hpp"

namespace nn {
namespace {
Context& ctx_storage() {
  static Context c;
  return c;
}
}  // namespace

const Context& default_context() { return ctx_storage(); }
void set_default_context(const Context& ctx) { ctx_storage() = ctx; }

std::vector<VariablePtr> call(const std::string& type, const std::vector<VariablePtr>& inputs, const Attrs& attrs,
                              const Context& ctx) {
  auto f = OpRegistry::instance().create(type, attrs, ctx);
  return connect(f, inputs);
}

VariablePtr call1(const std::string& type, const std::vector<VariablePtr>& inputs, const Attrs& attrs,
                  const Context& ctx) {
  auto outs = call(type, inputs, attrs, ctx);
  NN_INTERNAL_CHECK(!outs.empty()) << type << " has no output";
  return outs[0];
}

}  // namespace nn
