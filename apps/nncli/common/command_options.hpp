// Options several subcommands share, declared once: each helper fixes the option's names, its checks and, where
// the meaning is the same everywhere, its help text. Callers chain what only they need (->required(),
// ->capture_default_str()) on the returned option, and pass a help text where their meaning differs.
#pragma once
#include <cstdint>
#include <map>
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
  std::vector<std::string> input_shapes;  // --input-shape, where the subcommand adds it (convert, dump)
  ImportOptions import_options() const;
};
void add_model_import_options(CLI::App& command, ModelImportArgs& args, const std::string& format_help,
                              const std::string& executor_help = "Keep only executor N");

// --input-shape NAME=d0,d1,... (repeatable): the shape a named input takes (ImportOptions::input_shapes for ONNX
// models, ExecutorRunner::set_input_shapes for nnabla's). The help is convert's, infer's and dump's.
extern const char* const kInputShapeHelp;
CLI::Option* add_input_shape_option(CLI::App& command, std::vector<std::string>& specs,
                                    const std::string& help = kInputShapeHelp);
// "NAME=d0,d1,..." as (NAME, dims); throws kUsage quoting a malformed spec.
std::pair<std::string, nn::Shape> parse_input_shape(const std::string& spec);
// Specs naming each input once (convert, dump, infer) as NAME -> dims; kUsage for a name given twice.
std::map<std::string, nn::Shape> input_shape_map(const std::vector<std::string>& specs);

// profile: an input may be given several shapes, each profiled in turn. Set k takes the k-th shape of every input
// given several (all of them the same number of times) and the one shape of the others; no specs: one empty set.
// kUsage when inputs are given different numbers of shapes.
std::vector<std::map<std::string, nn::Shape>> input_shape_sets(const std::vector<std::string>& specs);
// "x=1x16x32 y=1x16" (no commas: it goes into profile.csv's column titles).
std::string input_shapes_label(const std::map<std::string, nn::Shape>& shapes);

// NNB: --api LEVEL (-1: the newest; default shown) and -T,--default-variable-type (default shown).
CLI::Option* add_nnb_api_option(CLI::App& command, int& api_level);
CLI::Option* add_default_variable_type_option(CLI::App& command, std::string& type, const std::string& help);

}  // namespace nncli
