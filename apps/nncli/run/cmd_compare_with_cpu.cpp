// `nncli compare_with_cpu`: runs two configs (or one on two contexts) on the same parameters and batch and
// compares every function's outputs, gradients and the update (docs/command_line.md#compare_with_cpu); exit 4
// beyond --atol/--rtol.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "common/command_options.hpp"
#include "compare_runner.hpp"
#include "formats/common/atomic_file.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "common/progress.hpp"
#include "common/json_text.hpp"
#include "nn/core/printable.hpp"

namespace nncli {

struct CompareOptions {
  std::vector<std::string> config, context;  // -c / -C; "-c2 X" arrives as -c "2" plus a positional X
  std::string config2, context2, outdir, format = "text";
  std::vector<std::string> rest;
  int64_t batch_size = -1;
  uint32_t seed = 0;
  double atol = 1e-5, rtol = 1e-3;
  CLI::App* app = nullptr;
  CLI::Option *config_opt = nullptr, *context_opt = nullptr, *rest_opt = nullptr;
};

std::shared_ptr<CompareOptions> setup_compare_with_cpu(CLI::App& command) {
  auto o = std::make_shared<CompareOptions>();
  o->app = &command;
  o->config_opt = command.add_option("-c,--config", o->config, "The config to check (.nntxt or .nnp)")
                      ->required()
                      ->allow_extra_args(false);
  command.add_option("--config2", o->config2, "The reference config (upstream spells it -c2, also accepted)");
  o->context_opt = add_context_option(command, o->context, "Context of the first config (default cpu)")
                       ->allow_extra_args(false);
  command.add_option("--context2", o->context2, "Context of the reference config (-C2; default cpu)");
  add_outdir_option(command, o->outdir, "Output directory for compare_with_cpu.csv");
  add_batch_size_option(command, o->batch_size, "Batch size (default: the network's)");
  add_seed_option(command, o->seed, "Seed of random data and stochastic functions");
  command.add_option("--atol", o->atol, "Absolute tolerance per element")->capture_default_str();
  command.add_option("--rtol", o->rtol, "Relative tolerance per element")->capture_default_str();
  add_text_json_format_option(command, o->format, "stdout: text or json");
  o->rest_opt = command.add_option("values", o->rest)->group("");
  return o;
}

namespace {

// Resolves upstream's "-c2 B" / "-C2 B" spelling, which CLI11 reads as "-c 2" followed by a positional B.
void resolve_two_spellings(const CompareOptions& opt, std::string& config1, std::string& config2,
                           std::string& context1, std::string& context2) {
  config2 = opt.config2;
  context2 = opt.context2;
  std::vector<std::string> configs, contexts;
  size_t i_config = 0, i_context = 0, i_rest = 0;
  std::string* pending = nullptr;
  for (const CLI::Option* o : opt.app->parse_order()) {
    if (o == opt.config_opt || o == opt.context_opt) {
      const bool is_config = o == opt.config_opt;
      const std::string& v = is_config ? opt.config.at(i_config++) : opt.context.at(i_context++);
      if (v == "2")
        pending = is_config ? &config2 : &context2;
      else
        (is_config ? configs : contexts).push_back(v);
    } else if (o == opt.rest_opt) {
      NN_CHECK_CODE(pending, nn::ErrorCode::kUsage) << "unexpected argument '" << opt.rest.at(i_rest) << "'";
      *pending = opt.rest.at(i_rest++);
      pending = nullptr;
    }
  }
  NN_CHECK_CODE(!pending, nn::ErrorCode::kUsage) << "-c2/-C2 needs a value";
  NN_CHECK_CODE(configs.size() == 1, nn::ErrorCode::kUsage) << "give exactly one -c/--config";
  NN_CHECK_CODE(!config2.empty(), nn::ErrorCode::kUsage) << "-c2/--config2 is required";
  NN_CHECK_CODE(contexts.size() <= 1, nn::ErrorCode::kUsage) << "give at most one -C/--context";
  config1 = configs.front();
  context1 = contexts.empty() ? "" : contexts.front();
}

std::string csv_value(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%f", v);
  return buf;
}

}  // namespace

int run_compare_with_cpu(const CompareOptions& opt) {
  std::string config1, config2, context1, context2;
  resolve_two_spellings(opt, config1, config2, context1, context2);
  compare::CompareSettings s;
  if (!context1.empty()) s.context1 = nn::parse_context(context1);
  if (!context2.empty()) s.context2 = nn::parse_context(context2);
  nn::check_context_available(s.context1);
  nn::check_context_available(s.context2);
  s.batch_size = opt.batch_size;
  s.seed = opt.seed;
  s.atol = opt.atol;
  s.rtol = opt.rtol;
  const nn::ir::Model first = import_model({config1}, ImportOptions{});
  nn::ir::Model second = import_model({config2}, ImportOptions{});
  std::error_code ec;
  std::filesystem::create_directories(opt.outdir, ec);
  NN_CHECK(std::filesystem::is_directory(opt.outdir))
      << "'" << opt.outdir << "': cannot create the output directory";
  ProgressFile progress(opt.outdir);
  progress.update("Comparing", 0.0);
  const auto results = compare::compare_models(first, std::move(second), s);

  // compare_with_cpu.csv: one column per target, rows keyed by name (first target's order).
  std::string csv = "1-Correl";
  for (const auto& r : results) csv += "," + r.title;
  csv += "\n";
  if (!results.empty())
    for (size_t i = 0; i < results[0].entries.size(); ++i) {
      csv += results[0].entries[i].name;
      for (const auto& r : results) csv += "," + (i < r.entries.size() ? csv_value(r.entries[i].norm_diff) : "");
      csv += "\n";
    }
  nn::formats::write_file_atomic((std::filesystem::path(opt.outdir) / "compare_with_cpu.csv").string(), csv);
  progress.clear();

  const compare::Entry* first_bad = nullptr;
  std::string first_bad_target;
  nlohmann::ordered_json j = {{"config", config1}, {"config2", config2}, {"atol", s.atol}, {"rtol", s.rtol}};
  std::string text;
  for (const auto& r : results) {
    text += r.title + " (data: " + r.data_note + ")\n";
    nlohmann::ordered_json t = {{"title", r.title}, {"data", r.data_note}, {"entries", nlohmann::json::array()}};
    for (const auto& e : r.entries) {
      text += e.name + ", " + csv_value(e.norm_diff) + ", " + csv_value(e.std1) + ", " + csv_value(e.std2) + ", " +
              csv_value(e.diff_std) + (e.within_tolerance ? "" : "  EXCEEDS TOLERANCE") + "\n";
      t["entries"].push_back({{"name", e.name},
                              {"norm_diff", e.norm_diff},
                              {"std1", e.std1},
                              {"std2", e.std2},
                              {"diff_std", e.diff_std},
                              {"max_abs_diff", e.max_abs_diff},
                              {"within_tolerance", e.within_tolerance},
                              {"shape_mismatch", e.shape_mismatch}});
      if (!e.within_tolerance && !first_bad) {
        first_bad = &e;
        first_bad_target = r.title;
      }
    }
    j["targets"].push_back(t);
  }
  j["first_exceeding"] = first_bad ? nlohmann::json(first_bad->name) : nlohmann::json();
  const std::string out = opt.format == "json" ? json_text(j, 2) + "\n" : nn::printable(text, true);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  NN_LOG_INFO << "Compare with CPU Completed.";
  if (!first_bad) return 0;
  NN_LOG_ERROR << first_bad_target << ": " << first_bad->name
               << " is the first to exceed the tolerances (max |a-b| " << first_bad->max_abs_diff << ", atol "
               << s.atol << ", rtol " << s.rtol << ")";
  return int(nn::ErrorCode::kCheckFailed);
}

}  // namespace nncli
