// convert's NNB exporter (-d nnb_N, --api, -b, -T, -s) with the memory-plan report and --ram-budget gate.
#include <cstdio>

#include "convert/convert_targets.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/nnb/nnb_writer.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace nnb = nn::formats::nnb;

namespace {

uint32_t nnb_version(const std::string& define_version) {
  if (define_version.empty()) return 2;
  NN_CHECK_CODE(define_version.rfind("nnb_", 0) == 0 && define_version.size() > 4 &&
                    define_version.find_first_not_of("0123456789", 4) == std::string::npos,
                nn::ErrorCode::kUsage)
      << "-d " << define_version << ": NNB export takes nnb_<N>";
  return uint32_t(std::stoul(define_version.substr(4)));
}

void report_plan(const nnb::MemoryPlan& plan, const std::string& output) {
  const char* names[] = {"FLOAT32", "FIXED16", "FIXED8", "SIGN"};
  std::string weights;
  int64_t total = 0;
  for (int t = 0; t < 4; ++t)
    if (plan.weight_bytes[t]) {
      weights += std::string(weights.empty() ? "" : ", ") + names[t] + " " + std::to_string(plan.weight_bytes[t]);
      total += plan.weight_bytes[t];
    }
  NN_LOG_INFO << "NNB memory plan of " << output << ": weights " << total << " bytes"
              << (weights.empty() ? "" : " (" + weights + ")") << ", activations " << plan.activation_bytes
              << " bytes after buffer sharing (" << plan.unshared_bytes << " unshared)";
  for (size_t k = 0; k < plan.functions.size(); ++k)
    NN_LOG_VERBOSE << "  function " << k << " " << plan.functions[k].name << " (" << plan.functions[k].type
                   << "): live activations " << plan.functions[k].live_bytes << " bytes";
}

}  // namespace

nnb::NnbExportOptions nnb_export_options(const ConvertOptions& options) {
  nnb::NnbExportOptions o;
  o.version = nnb_version(options.define_version);
  o.api_level = options.api_level;
  o.batch_size = options.batch_size;
  o.default_type = nnb::parse_variable_type(options.default_variable_type, "-T");
  if (!options.settings.empty()) o.settings = nnb::read_settings(options.settings);
  return o;
}

void export_nnb(const nn::ir::Model& model, const std::string& output, const ConvertOptions& options) {
  nnb::MemoryPlan plan;
  const nnb::NnbNetwork network = nnb::build_nnb(model, nnb_export_options(options), &plan);
  report_plan(plan, output);
  int64_t total = plan.activation_bytes;
  for (int64_t w : plan.weight_bytes) total += w;
  NN_CHECK_CODE(options.ram_budget <= 0 || total <= options.ram_budget, nn::ErrorCode::kCheckFailed)
      << "'" << output << "': the network needs " << total << " bytes (weights " << total - plan.activation_bytes
      << " + activations " << plan.activation_bytes << "), more than --ram-budget " << options.ram_budget;
  nn::formats::write_file_atomic(output, nnb::serialize_nnb(network));
}

}  // namespace nncli
