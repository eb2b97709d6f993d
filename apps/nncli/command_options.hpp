// Options several subcommands share, declared once: each helper fixes the option's names, its checks and, where
// the meaning is the same everywhere, its help text. Callers chain what only they need (->required(),
// ->capture_default_str()) on the returned option, and pass a help text where their meaning differs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "command.hpp"
#include "model_session.hpp"

namespace nncli {

// -c,--config: a model or training config that must exist (forward, infer, profile, train).
CLI::Option* add_model_config_option(CLI::App& command, std::string& config, const std::string& help);

// -p,--param: parameter file(s) that must exist, read with the model (forward, infer, profile, train).
CLI::Option* add_param_option(CLI::App& command, std::string& param, const std::string& help);
CLI::Option* add_param_option(CLI::App& command, std::vector<std::string>& params, const std::string& help);

// -C,--context: the backend a model runs on. The default help is infer's and forward's.
extern const char* const kModelContextHelp;
CLI::Option* add_context_option(CLI::App& command, std::string& context,
                                const std::string& help = kModelContextHelp);
CLI::Option* add_context_option(CLI::App& command, std::vector<std::string>& context, const std::string& help);

// -o,--outdir: the output directory, required.
CLI::Option* add_outdir_option(CLI::App& command, std::string& outdir, const std::string& help);

// -b,--batch-size (the value's meaning is the caller's help text).
CLI::Option* add_batch_size_option(CLI::App& command, int64_t& batch_size, const std::string& help);
// infer and forward: -b,--batch_size,--batch-size, below 1 the network's batch size (default shown).
CLI::Option* add_run_batch_size_option(CLI::App& command, int64_t& batch_size);

// -s,--seed (default shown).
CLI::Option* add_seed_option(CLI::App& command, uint32_t& seed, const std::string& help);

// --no-optimize: run the network without the inference passes (infer, forward, profile).
CLI::Option* add_no_optimize_flag(CLI::App& command, bool& no_optimize);

// --format text|json (the help says what is written that way).
CLI::Option* add_text_json_format_option(CLI::App& command, std::string& format, const std::string& help);

// --nnp-no-expand-network: keep repeat/recurrent loops unexpanded.
CLI::Option* add_no_expand_flag(CLI::App& command, bool& no_expand,
                                const std::string& help = "Do not expand repeat/recurrent loops");

// The model import options of convert, dump and nnb_template: -I, -E, --nnp-exclude-preprocess and
// --nnp-no-expand-network.
struct ModelImportArgs {
  std::string import_format = "NNP";
  int executor_index = -1;
  bool exclude_preprocess = false;  // accepted for compatibility, no effect
  bool no_expand = false;
  ImportOptions import_options() const;
};
void add_model_import_options(CLI::App& command, ModelImportArgs& args, const std::string& format_help,
                              const std::string& executor_help = "Keep only executor N");

// NNB: --api LEVEL (-1: the newest; default shown) and -T,--default-variable-type (default shown).
CLI::Option* add_nnb_api_option(CLI::App& command, int& api_level);
CLI::Option* add_default_variable_type_option(CLI::App& command, std::string& type, const std::string& help);

}  // namespace nncli
