// `nncli profile`: upstream's profile.csv (per-function forward/backward, data loading, solver update) for
// optimizers and also executors (docs/command_line.md#profile), with percentiles, hotspots, JSON and a CI
// regression gate.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>

#include "command.hpp"
#include "common/command_options.hpp"
#include "formats/common/atomic_file.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "run/profile_report.hpp"
#include "profile_runner.hpp"
#include "common/progress.hpp"
#include "nn/core/printable.hpp"

namespace nncli {

struct ProfileOptions {
  std::string config, outdir, context, format = "text", baseline, only = "all";
  std::vector<std::string> params, input_shapes;
  int64_t warmup = 2, iterations = -1, batch_size = -1;
  double duration = -1, fail_if_slower = -1;
  size_t top = 10;
  uint32_t seed = 0;
  bool no_optimize = false, no_function_times = false;
};

std::shared_ptr<ProfileOptions> setup_profile(CLI::App& command) {
  auto o = std::make_shared<ProfileOptions>();
  add_model_config_option(command, o->config, "Model config (.nntxt, .prototxt or .nnp)")->required();
  add_outdir_option(command, o->outdir, "Output directory for profile.csv and profile.json");
  add_param_option(command, o->params, "Extra parameter files (.h5, .protobuf)");
  add_context_option(command, o->context, "Context: cpu (default), or cudnn[:half] when built with CUDA");
  add_batch_size_option(command, o->batch_size, "Batch size (default: the dataset's or network's)");
  command.add_option("--only", o->only, "Profile optimizers, executors or all")
      ->check(CLI::IsMember({"all", "optimizers", "executors"}))
      ->capture_default_str();
  command.add_option("--warmup", o->warmup, "Minimum warm-up iterations (then until stable; 0: none)")
      ->capture_default_str();
  command.add_option("--iterations", o->iterations, "Measured iterations (default: >= 100 and >= 1 s)");
  command.add_option("--duration", o->duration, "Measure for at least this many seconds");
  command.add_option("--top", o->top, "Hotspots listed per target")->capture_default_str();
  add_seed_option(command, o->seed, "Seed of random data and parameters");
  add_text_json_format_option(command, o->format, "stdout: text or json");
  add_no_optimize_flag(command, o->no_optimize);
  add_input_shape_option(command, o->input_shapes,
                         "NAME=d0,d1,...: profile an ONNX model at this input shape; give an input several shapes "
                         "to profile each in turn (one row per shape)");
  command.add_flag("--no-function-times", o->no_function_times,
                   "Time whole iterations only (no timer around each function: they add to a small network's "
                   "iteration)");
  command.add_option("--baseline", o->baseline, "profile.json of an earlier run to compare with");
  command.add_option("--fail-if-slower", o->fail_if_slower,
                     "With --baseline: exit 4 when an iteration median is more than PCT percent slower");
  return o;
}

int run_profile(const ProfileOptions& opt) {
  NN_CHECK_CODE(opt.fail_if_slower < 0 || !opt.baseline.empty(), nn::ErrorCode::kUsage)
      << "--fail-if-slower needs --baseline";
  NN_CHECK_CODE(opt.iterations != 0 && opt.duration != 0, nn::ErrorCode::kUsage)
      << "--iterations and --duration must be positive";
  profile::ProfileSettings settings;
  settings.loop.warmup = opt.warmup;
  if (opt.iterations > 0 || opt.duration > 0) {  // either one alone replaces both defaults
    settings.loop.iterations = opt.iterations;
    settings.loop.duration_s = opt.duration;
  }
  if (!opt.context.empty()) settings.context = nn::parse_context(opt.context);
  nn::check_context_available(settings.context);
  settings.batch_size = opt.batch_size;
  settings.seed = opt.seed;
  settings.optimizers = opt.only != "executors";
  settings.executors = opt.only != "optimizers";
  settings.function_times = !opt.no_function_times;

  std::vector<std::string> files{opt.config};
  files.insert(files.end(), opt.params.begin(), opt.params.end());
  ImportOptions import_options;
  import_options.optimize = !opt.no_optimize;
  import_options.training_lists = true;  // the optimizers' parameter lists say what their backward passes reach
  const auto shape_sets = input_shape_sets(opt.input_shapes);
  std::error_code ec;
  std::filesystem::create_directories(opt.outdir, ec);
  NN_CHECK(std::filesystem::is_directory(opt.outdir))
      << "'" << opt.outdir << "': cannot create the output directory";
  ProgressFile progress(opt.outdir);
  progress.update("Profiling", 0.0);

  // Each set of input shapes: the model imported at them and profiled, its targets titled with the shapes.
  std::vector<profile::TargetResult> results;
  for (const auto& shapes : shape_sets) {
    import_options.input_shapes = shapes;
    nn::ir::Model model = import_model(files, import_options);
    for (auto& r : profile::profile_model(model, settings)) {
      if (!shapes.empty()) r.title += " at " + input_shapes_label(shapes);
      results.push_back(std::move(r));
    }
  }
  NN_CHECK(!results.empty()) << "'" << opt.config << "': nothing to profile (no optimizer"
                             << (opt.only == "optimizers" ? "" : " and no executor") << ")";
  for (const auto& r : results)
    for (const auto& item : r.items)
      NN_LOG_VERBOSE << r.title << ": " << item.csv_name << " " << item.stats.mean << "(ms)";

  const profile::MachineInfo machine = profile::machine_info(settings.context.to_string());
  const std::string json = profile::json_report(results, machine);
  nn::formats::write_file_atomic((std::filesystem::path(opt.outdir) / "profile.csv").string(),
                                 profile::profile_csv(results));
  nn::formats::write_file_atomic((std::filesystem::path(opt.outdir) / "profile.json").string(), json);
  progress.clear();
  const std::string text =
      opt.format == "json" ? json : nn::printable(profile::text_summary(results, machine, opt.top), true);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  NN_LOG_INFO << "Profile Completed.";

  if (opt.baseline.empty()) return 0;
  const std::vector<std::string> slower =
      profile::regressions(results, opt.baseline, opt.fail_if_slower < 0 ? 1e300 : opt.fail_if_slower);
  for (const auto& line : slower) NN_LOG_ERROR << "regression: " << line;
  return slower.empty() ? 0 : int(nn::ErrorCode::kCheckFailed);
}

}  // namespace nncli
