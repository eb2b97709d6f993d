// nncli entry point: global flags, log sink, the subcommand table (commands.def), exceptions -> exit codes.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "error_line.hpp"
#include "formats/common/atomic_file.hpp"
#include "nn/train/mpi_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "common/progress.hpp"
#include "thread_policy.hpp"
#include "wrapped_help.hpp"

namespace {

using Runner = std::function<int()>;

template <class Options>
std::pair<CLI::App*, Runner> add_command(CLI::App& app, const char* name, const char* help,
                                         std::shared_ptr<Options> (*setup)(CLI::App&),
                                         int (*run)(const Options&)) {
  CLI::App* command = app.add_subcommand(name, help);
  std::shared_ptr<Options> options = setup(*command);
  return {command, [options, run] { return run(*options); }};
}

std::string g_name = "nncli";  // "nncli[rank N]" on the MPI processes other than rank 0

// Log lines go to stderr as "nncli: [warning: ]message", after clearing any progress line.
void install_log_sink(int verbose, bool quiet) {
  nn::set_log_level(quiet          ? nn::LogLevel::kError
                    : verbose >= 2 ? nn::LogLevel::kDebug
                    : verbose == 1 ? nn::LogLevel::kVerbose
                                   : nn::LogLevel::kInfo);
  nncli::set_progress_enabled(!quiet);
  nn::set_log_sink([](nn::LogLevel level, const std::string& text) {
    nncli::clear_progress_line();
    const char* prefix = level == nn::LogLevel::kError     ? "error: "
                         : level == nn::LogLevel::kWarning ? "warning: "
                                                           : "";
    std::fprintf(stderr, "%s: %s%s\n", g_name.c_str(), prefix, text.c_str());
  });
}

// Through the log sink, which escapes what a file put in the message (nn::log_message).
int report_error(const char* what, int code) {
  nn::log_message(nn::LogLevel::kError, nncli::shorten_quoted_names(what));
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  nn::formats::install_temp_file_cleanup();  // Ctrl-C or kill leaves no '*.tmp.XXXXXX' behind
  CLI::App app{"nncli: train, run and convert nnabla models (compatible with nnabla_cli)", "nncli"};
  app.require_subcommand(1);
  app.formatter(std::make_shared<nncli::WrappingFormatter>());  // help fits 80 columns
  int verbose = 0;
  bool quiet = false;
  bool mpi = false;
  app.add_flag("-v,--verbose", verbose, "More log output on stderr (-vv: debug)");
  app.add_flag("-q,--quiet", quiet, "Only errors on stderr");
  app.add_flag("-m,--mpi", mpi, "Multi-process data-parallel training under OpenMPI's mpirun");
  int threads = 0;
  app.add_option("--threads", threads,
                 "Compute threads (default: OMP_NUM_THREADS, else the CPUs of the affinity mask and cgroup quota)")
      ->check(CLI::Range(1, 4096));

  std::vector<std::pair<CLI::App*, Runner>> commands;
#define NNCLI_COMMAND(name, Options, setup, run, help) \
  commands.push_back(add_command<nncli::Options>(app, #name, help, nncli::setup, nncli::run));
#include "commands.def"
#undef NNCLI_COMMAND
  for (auto& entry : commands) entry.first->fallthrough();  // `nncli infer --threads 1 ...` as well

  std::vector<std::string> names;
  for (const auto& entry : commands) names.push_back(entry.first->get_name());
  if (const std::string word = nncli::unknown_subcommand(argc, argv, names, {"--threads"}); !word.empty())
    return report_error(("unknown subcommand '" + word + "' (nncli --help lists them)").c_str(),
                        int(nn::ErrorCode::kUsage));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ValidationError& e) {  // a missing input file: one error line, exit 2
    return report_error(e.what(), int(nn::ErrorCode::kUsage));
  } catch (const CLI::ParseError& e) {
    const int shown = app.exit(e);  // prints help (stdout) or the usage error (stderr)
    return shown == 0 ? 0 : int(nn::ErrorCode::kUsage);
  }
  install_log_sink(verbose, quiet);
  nncli::apply_thread_settings(threads);

  // -m: one of mpirun's processes (docs/command_line.md#train-mpi); rank 0 alone logs progress.
  nn::train::MpiSession mpi_session;
  return mpi_session.finish([&] {
    try {
      if (mpi) mpi_session.start();
      if (mpi_session.rank() != 0) {
        g_name = "nncli[rank " + std::to_string(mpi_session.rank()) + "]";
        if (verbose == 0 && !quiet) nn::set_log_level(nn::LogLevel::kWarning);
      }
      for (auto& [command, run] : commands)
        if (command->parsed()) return run();
      return report_error("no subcommand given", int(nn::ErrorCode::kUsage));
    } catch (const nn::Error& e) {
      return report_error(e.what(), int(e.code()));
    } catch (const std::bad_alloc&) {
      return report_error("out of memory", int(nn::ErrorCode::kInvalid));
    } catch (const std::exception& e) {
      return report_error((std::string("internal error: ") + e.what()).c_str(), int(nn::ErrorCode::kInternal));
    }
  }());
}
