// `nncli version`: version, git commit, build type, the file-format versions this build supports and the
// contexts it can run (-C) here.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "common/command_options.hpp"
#include "nn/core/context.hpp"
#include "nn/ops/op_registry.hpp"

namespace nncli {

struct VersionOptions {
  std::string format = "text";
};

namespace {
constexpr const char* kNnpVersion = "0.1";  // nnp_version.txt written and read by this build
}  // namespace

std::shared_ptr<VersionOptions> setup_version(CLI::App& command) {
  auto options = std::make_shared<VersionOptions>();
  add_text_json_format_option(command, options->format, "Output format");
  return options;
}

int run_version(const VersionOptions& options) {
  const size_t functions = nn::OpRegistry::instance().names().size();
  const std::vector<std::string> contexts = nn::available_backends();
  const std::string gpu = nn::gpu_unavailable_reason();
  // The CUDA backend library: where it was found (the reason above says why it is not usable).
  const std::string backend = nn::gpu_backend_path();
  if (options.format == "json") {
    nlohmann::ordered_json j;
    j["version"] = NN_VERSION;
    j["git_commit"] = NN_GIT_COMMIT;
    j["build_type"] = NNCLI_BUILD_TYPE;
    j["nnp_version"] = kNnpVersion;
    j["functions"] = functions;
    j["contexts"] = contexts;
    j["gpu"] = gpu.empty() ? "available" : gpu;
    j["cuda_backend"] = backend.empty() ? "not installed" : backend;
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  // First line as nnabla_cli prints it (its banner's "Version:<ver>, Build:<build>").
  std::printf("Version:%s, Build:%s\n", NN_VERSION, NN_GIT_COMMIT);
  std::printf("git commit:  %s\n", NN_GIT_COMMIT);
  std::printf("build type:  %s\n", NNCLI_BUILD_TYPE);
  std::printf("nnp version: %s\n", kNnpVersion);
  std::printf("functions:   %zu\n", functions);
  std::string list;
  for (const auto& c : contexts) list += (list.empty() ? "" : ", ") + c;
  std::printf("contexts:    %s%s\n", list.c_str(), gpu.empty() ? "" : (" (GPU: " + gpu + ")").c_str());
  std::printf("cuda backend: %s\n", backend.empty() ? "not installed" : ("installed, " + backend).c_str());
  return 0;
}

}  // namespace nncli
