// Context parsing (nnabla's "backend:type" strings and nnabla_cli's -C values).
#include "nn/core/context.hpp"

#include <sstream>

#include "nn/core/error.hpp"

namespace nn {

std::vector<Backend> Context::parsed_backends() const {
  std::vector<Backend> out;
  for (const auto& b : backends) {
    auto colon = b.find(':');
    Backend be{b.substr(0, colon), colon == std::string::npos ? "float" : b.substr(colon + 1)};
    out.push_back(be);
  }
  return out;
}

bool Context::is_cpu_only() const {
  for (const auto& b : parsed_backends())
    if (b.name != "cpu") return false;
  return true;
}

std::string Context::to_string() const {
  std::string s;
  for (size_t i = 0; i < backends.size(); ++i) s += (i ? "," : "") + backends[i];
  return s + " (device " + std::to_string(device_id) + ")";
}

Context cpu_context() { return Context{}; }

Context parse_context(const std::string& spec) {
  Context ctx;
  ctx.backends.clear();
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    auto colon = item.find(':');
    std::string name = item.substr(0, colon);
    std::string type = colon == std::string::npos ? "float" : item.substr(colon + 1);
    NN_CHECK_CODE(name == "cpu" || name == "cuda" || name == "cudnn", ErrorCode::kUsage)
        << "unknown context '" << item << "' (expected cpu, cuda or cudnn, optionally with :float or :half)";
    NN_CHECK_CODE(type == "float" || type == "half", ErrorCode::kUsage)
        << "unknown type configuration '" << type << "' in context '" << item << "' (float or half)";
    // nnabla lists the plain cuda and cpu fallbacks after cudnn.
    ctx.backends.push_back(name + ":" + type);
    if (name == "cudnn") ctx.backends.push_back("cuda:" + type);
  }
  if (ctx.backends.empty() || ctx.backends.back().rfind("cpu", 0) != 0) ctx.backends.push_back("cpu:float");
  return ctx;
}

}  // namespace nn
