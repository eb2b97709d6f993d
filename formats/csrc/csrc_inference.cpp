// CSRC N_inference.c: the context struct, allocate/free, buffer accessors and the inference call sequence.
#include <cstring>
#include <map>
#include <sstream>

#include "formats/csrc/csrc_plan.hpp"
#include "formats/nnb/nnb_args.hpp"
#include "nn/core/error.hpp"
#include "nn/ir/function_label.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::formats::csrc {

namespace {

namespace nnb = nn::formats::nnb;

struct FunctionText {
  std::string snake;
  std::vector<std::string> arg_names;
};

FunctionText function_text(const CsrcPlan& plan, size_t k) {
  const auto& f = plan.network->functions[k];
  FunctionText t;
  const OpSchema* schema = OpRegistry::instance().find(f.type);
  t.snake = schema ? schema->snake_name : "";
  NN_CHECK(!t.snake.empty()) << ir::label(f) << ": no snake_case name for CSRC";
  t.arg_names = nnb::argument_names(f.type, plan.nnb.functions[k].args.size());
  return t;
}

// Where variable v's data lives: a pool buffer, a parameter slot or a generator array.
std::string data_source(const CsrcPlan& plan, size_t v, const std::map<size_t, size_t>& param_slot) {
  const auto& var = plan.network->variables[v];
  if (plan.generators.count(var.name)) return c_identifier(var.name);
  if (auto it = param_slot.find(v); it != param_slot.end())
    return "c->param_pool[" + std::to_string(it->second) + "]";
  const int32_t index = plan.nnb.variables[v].data_index;
  return "c->buffer_pool[" + std::to_string(index < 0 ? -index - 1 : 0) + "]";
}

std::string argument_value(const std::string& type, const std::string& snake, const std::string& name,
                           const nnb::NnbArgument& a) {
  if (a.code == "B") return a.i ? "1" : "0";
  if (a.code == "f") return python_float(double(a.f));
  const auto& choices = nnb::string_choices(type, name);
  if (!choices.empty() && a.i >= 0 && size_t(a.i) < choices.size())
    return upper(snake) + "_" + upper(name) + "_" + upper(choices[size_t(a.i)]);
  return std::to_string(a.i);
}

}  // namespace

std::string inference_source(const CsrcPlan& plan) {
  const std::string& p = plan.prefix;
  const std::string context_type = p + "_local_context_t";
  const auto& vars = plan.network->variables;
  const auto& funcs = plan.network->functions;
  std::map<std::string, size_t> index;
  for (size_t v = 0; v < vars.size(); ++v) index[vars[v].name] = v;
  std::map<size_t, size_t> param_slot;
  for (size_t n = 0; n < plan.parameters.size(); ++n) param_slot[plan.parameters[n]] = n;
  std::vector<FunctionText> texts;
  for (size_t k = 0; k < funcs.size(); ++k) texts.push_back(function_text(plan, k));

  std::ostringstream o;
  o << generated_banner() << "\n#include \"" << plan.name << "_inference.h\"\n\n"
    << "#include <nnablart/functions.h>\n#include <stdlib.h>\n#include <string.h>\n\n";
  // The context.
  o << "typedef struct {\n"
    << "    void *buffer_pool[" << plan.nnb.buffers.size() << "];\n"
    << "    void *param_pool[" << plan.parameters.size() << "];\n"
    << "    rt_buffer_allocate_type_t variable_buffers_allocate_type[" << vars.size()
    << "];\n\n    // Variables\n";
  for (size_t v = 0; v < vars.size(); ++v)
    o << "    rt_variable_t v" << v << "; ///< " << vars[v].name << "\n"
      << "    int v" << v << "_shape[" << plan.nnb.variables[v].shape.size() << "];\n";
  o << "\n    // Functions\n";
  for (size_t k = 0; k < funcs.size(); ++k) {
    o << "    rt_function_t f" << k << "; ///< " << funcs[k].type << "\n"
      << "    rt_variable_t* f" << k << "_inputs[" << funcs[k].inputs.size() << "];\n"
      << "    rt_variable_t* f" << k << "_outputs[" << funcs[k].outputs.size() << "];\n";
    const auto& args = plan.nnb.functions[k].args;
    if (args.empty()) continue;
    o << "    " << texts[k].snake << "_local_context_t *f" << k << "_local_context;\n";
    for (size_t a = 0; a < args.size(); ++a)
      if (args[a].code == "iI")
        o << "    int f" << k << "_local_context_shape_" << texts[k].arg_names[a] << "[" << args[a].list.size()
          << "];\n";
  }
  o << "} " << context_type << ";\n\n";
  o << "int actual_buf_sizes[" << plan.nnb.buffers.size() << "] = {\n";
  for (uint32_t s : plan.nnb.buffers) o << "    " << s << ",\n";
  o << "};\n\n";
  for (size_t v = 0; v < vars.size(); ++v) {
    if (!plan.generators.count(vars[v].name)) continue;
    const std::string& bytes = plan.nnb.variables[v].data;
    o << "float " << c_identifier(vars[v].name) << "[" << bytes.size() / 4 << "] = {\n";
    for (size_t e = 0; e + 4 <= bytes.size(); e += 4) {
      float x;
      std::memcpy(&x, bytes.data() + e, 4);
      o << "    " << python_float(double(x)) << ",\n";
    }
    o << "};\n\n";
  }
  o << "void *(*rt_variable_malloc_func)(size_t size) = malloc;\n"
    << "void (*rt_variable_free_func)(void *ptr) = free;\n\n"
    << "void *(*rt_malloc_func)(size_t size) = malloc;\n"
    << "void (*rt_free_func)(void *ptr) = free;\n\n";

  // Allocation.
  o << "void* " << p << "_allocate_context(void** params)\n{\n"
    << "    " << context_type << "* c = calloc(sizeof(" << context_type << "), 1);\n"
    << "    // Variable buffer\n"
    << "    for (int i = 0; i < " << plan.nnb.buffers.size() << "; i++) {\n"
    << "        c->buffer_pool[i] = malloc(sizeof(float) * actual_buf_sizes[i]);\n"
    << "        memset(c->buffer_pool[i], 0, sizeof(float) * actual_buf_sizes[i]);\n    }\n";
  o << "    if(params) {\n";
  for (size_t n = 0; n < plan.parameters.size(); ++n)
    o << "        c->variable_buffers_allocate_type[" << plan.parameters[n]
      << "] = RT_BUFFER_ALLOCATE_TYPE_ALLOCATED;\n"
      << "        c->param_pool[" << n << "] = *params++;\n";
  o << "    } else {\n";
  for (size_t n = 0; n < plan.parameters.size(); ++n)
    o << "        c->variable_buffers_allocate_type[" << plan.parameters[n]
      << "] = RT_BUFFER_ALLOCATE_TYPE_MALLOC;\n"
      << "        c->param_pool[" << n << "] = malloc(sizeof(float) * "
      << element_count_of(plan, plan.parameters[n]) << ");\n";
  o << "    }\n\n    // Variables\n";
  for (size_t v = 0; v < vars.size(); ++v) {
    const auto& shape = plan.nnb.variables[v].shape;
    o << "    // " << vars[v].name << "\n"
      << "    (c->v" << v << ").type = NN_DATA_TYPE_FLOAT;\n"
      << "    (c->v" << v << ").shape.size = " << shape.size() << ";\n";
    for (size_t d = 0; d < shape.size(); ++d)
      o << "    c->v" << v << "_shape[" << d << "] = " << shape[d] << ";\n";
    o << "    (c->v" << v << ").shape.data = c->v" << v << "_shape;\n"
      << "    (c->v" << v << ").data = " << data_source(plan, v, param_slot) << ";\n";
  }
  o << "\n    // Functions\n";
  for (size_t k = 0; k < funcs.size(); ++k) {
    const auto& f = funcs[k];
    const auto& args = plan.nnb.functions[k].args;
    const std::string fk = "f" + std::to_string(k);
    o << "    // " << f.type << "\n";
    if (!args.empty())
      o << "    c->" << fk << "_local_context = malloc(sizeof(" << texts[k].snake << "_local_context_t));\n";
    o << "    (c->" << fk << ").num_of_inputs = " << f.inputs.size() << ";\n";
    for (size_t i = 0; i < f.inputs.size(); ++i)
      o << "    (c->" << fk << "_inputs)[" << i << "] = &(c->v" << index.at(f.inputs[i]) << ");\n";
    o << "    (c->" << fk << ").inputs = c->" << fk << "_inputs;\n"
      << "    (c->" << fk << ").num_of_outputs = " << f.outputs.size() << ";\n";
    for (size_t i = 0; i < f.outputs.size(); ++i)
      o << "    (c->" << fk << "_outputs)[" << i << "] = &(c->v" << index.at(f.outputs[i]) << ");\n";
    o << "    (c->" << fk << ").outputs = c->" << fk << "_outputs;\n";
    if (args.empty()) {
      o << "    (c->" << fk << ").local_context = 0;\n";
    } else {
      o << "    (c->" << fk << ").local_context = c->" << fk << "_local_context;\n";
      for (size_t a = 0; a < args.size(); ++a) {
        const std::string& name = texts[k].arg_names[a];
        if (args[a].code == "iI") {
          const std::string list = "arg_" + fk + "_" + name;
          o << "    rt_list_t " << list << ";\n    " << list << ".size = " << args[a].list.size() << ";\n"
            << "    " << list << ".data = c->" << fk << "_local_context_shape_" << name << ";\n";
          for (size_t e = 0; e < args[a].list.size(); ++e)
            o << "    " << list << ".data[" << e << "] = " << args[a].list[e] << ";\n";
          o << "    (c->" << fk << "_local_context)->" << name << " = " << list << ";\n";
        } else {
          o << "    (c->" << fk << "_local_context)->" << name << " = "
            << argument_value(f.type, texts[k].snake, name, args[a]) << ";\n";
        }
      }
    }
    o << "    allocate_" << texts[k].snake << "_local_context(&(c->" << fk << "));\n";
  }
  o << "    return (void*)c;\n}\n\n";

  // Free.
  o << "int " << p << "_free_context(void* context)\n{\n"
    << "    " << context_type << "* c = (" << context_type << "*)context;\n"
    << "    for (int i = 0; i < " << plan.nnb.buffers.size()
    << "; i++) {\n        free(c->buffer_pool[i]);\n    }\n";
  for (size_t n = 0; n < plan.parameters.size(); ++n)
    o << "    if(c->variable_buffers_allocate_type[" << plan.parameters[n]
      << "] == RT_BUFFER_ALLOCATE_TYPE_MALLOC) {\n"
      << "        free(c->param_pool[" << n << "]);\n    }\n";
  for (size_t k = 0; k < funcs.size(); ++k)
    o << "    free_" << texts[k].snake << "_local_context(&(c->f" << k << "));\n"
      << "    if (c->f" << k << ".local_context != 0) {\n        rt_free_func(c->f" << k << ".local_context);\n"
      << "        c->f" << k << ".local_context = 0;\n    }\n";
  o << "    free(context);\n    return NN_ERROR_CODE_NOERROR;\n}\n\n";

  // Accessors.
  auto accessor = [&](const std::string& what, const std::vector<size_t>& variables) {
    o << "float* " << p << "_" << what << "_buffer(void* context, int index)\n{\n"
      << "    " << context_type << "* c = (" << context_type << "*)context;\n"
      << (variables.empty() ? "    (void)c;\n" : "") << "    switch(index) {\n";
    for (size_t n = 0; n < variables.size(); ++n)
      o << "        case " << n << ": return (c->v" << variables[n] << ").data;\n";
    o << "    }\n    return 0;\n}\n\n";
  };
  accessor("input", std::vector<size_t>(plan.nnb.inputs.begin(), plan.nnb.inputs.end()));
  accessor("output", std::vector<size_t>(plan.nnb.outputs.begin(), plan.nnb.outputs.end()));
  if (!plan.parameters.empty()) accessor("param", plan.parameters);

  o << "int " << p << "_inference(void* context)\n{\n"
    << "    " << context_type << "* c = (" << context_type << "*)context;\n";
  for (size_t k = 0; k < funcs.size(); ++k) o << "    exec_" << texts[k].snake << "(&(c->f" << k << "));\n";
  o << "    return NN_ERROR_CODE_NOERROR;\n}\n";
  return o.str();
}

}  // namespace nn::formats::csrc
