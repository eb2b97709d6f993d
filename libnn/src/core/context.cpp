// Context parsing (nnabla's "backend:type" strings and nnabla_cli's -C values).
#include "nn/core/context.hpp"

#include <sstream>
#include <utility>

#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn {

namespace {
// The GPU backend's hooks; empty until the backend library registers them (load_gpu_backend).
GpuBackendHooks& registered_hooks() {
  static GpuBackendHooks hooks;
  return hooks;
}
// The hooks after the backend was loaded (once; a CPU-only run never gets here).
const GpuBackendHooks& gpu_backend() {
  (void)load_gpu_backend();
  return registered_hooks();
}
}  // namespace

void register_gpu_backend(GpuBackendHooks hooks) { registered_hooks() = std::move(hooks); }

std::unique_ptr<DeviceReducer> make_device_reducer(int rank, int size, int device,
                                                   const std::function<void(void*, size_t)>& broadcast_from_root) {
  const GpuBackendHooks& gpu = gpu_backend();
  return gpu.make_reducer ? gpu.make_reducer(rank, size, device, broadcast_from_root) : nullptr;
}

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

bool Context::uses_half() const {
  for (const auto& b : parsed_backends())
    if (b.type_config == "half") return true;
  return false;
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
    std::vector<std::string> parts;
    std::stringstream part_stream(item);
    for (std::string part; std::getline(part_stream, part, ':');) parts.push_back(part);
    std::string name = parts.empty() ? item : parts[0];
    std::string type = "float";
    for (size_t i = 1; i < parts.size(); ++i) {
      const bool numeric = !parts[i].empty() && parts[i].find_first_not_of("0123456789") == std::string::npos;
      if (numeric) {
        NN_CHECK_CODE(parts[i].size() < 6, ErrorCode::kUsage)
            << "device id in context '" << item << "' is too large";
        ctx.device_id = std::stoi(parts[i]);
      } else {
        type = parts[i];
      }
    }
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

std::string gpu_unavailable_reason() {
  const std::string before = gpu_backend_unusable_before_loading();
  if (!before.empty()) return before;
  const std::string not_loaded = load_gpu_backend();
  if (!not_loaded.empty()) return not_loaded;
  const GpuBackendHooks& gpu = registered_hooks();
  return gpu.problem ? gpu.problem() : "the CUDA backend registered no device hooks";
}

namespace {
std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}
}  // namespace

std::vector<std::string> available_backends() {
  std::vector<std::string> out{"cpu:float"};
  if (gpu_unavailable_reason().empty()) {
    for (const char* b : {"cudnn:float", "cuda:float", "cudnn:half", "cuda:half"}) out.push_back(b);
  }
  return out;
}

void check_context_available(const Context& ctx) {
  for (const auto& b : ctx.parsed_backends()) {
    if (b.name == "cpu") continue;
    const std::string problem = gpu_unavailable_reason();
    NN_CHECK_CODE(problem.empty(), ErrorCode::kUnsupported)
        << "context '" << b.name << ":" << b.type_config << "' unavailable: " << problem
        << "; available: " << join(available_backends());
    const int devices = gpu_backend().device_count();  // registered: the problem above came from it
    NN_CHECK_CODE(ctx.device_id >= 0 && ctx.device_id < devices, ErrorCode::kUnsupported)
        << "context '" << b.name << ":" << b.type_config << "' unavailable: device " << ctx.device_id
        << " does not exist (" << devices << " CUDA device" << (devices == 1 ? "" : "s") << ")";
  }
}

Context context_or_cpu(const Context& ctx) {
  try {
    check_context_available(ctx);
    return ctx;
  } catch (const Error& e) {
    NN_LOG_INFO << e.what() << "; running on cpu:float";
    return cpu_context();
  }
}

void synchronize(const Context& ctx) {
  if (ctx.is_cpu_only()) return;
  const GpuBackendHooks& gpu = gpu_backend();
  if (gpu.synchronize) gpu.synchronize(ctx.device_id);
}

}  // namespace nn
