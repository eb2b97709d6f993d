// `nncli nnb_template`: write the NNB settings YAML template (every function, every variable) of a model.
#include <CLI/CLI.hpp>

#include "command.hpp"
#include "common/command_options.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "formats/nnb/nnb_settings.hpp"
#include "formats/nnb/nnb_writer.hpp"
#include "formats/passes/export_target.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"

namespace nncli {

struct NnbTemplateOptions {
  ModelImportArgs import;
  int64_t batch_size = -1;
  std::string default_type = "FLOAT32";
  int api_level = -1;
  std::vector<std::string> files;
};

std::shared_ptr<NnbTemplateOptions> setup_nnb_template(CLI::App& command) {
  auto o = std::make_shared<NnbTemplateOptions>();
  add_model_import_options(command, o->import, "Input format");
  add_batch_size_option(command, o->batch_size, "Batch size (<0: the network's)")->capture_default_str();
  add_default_variable_type_option(command, o->default_type, "Type written for every variable");
  add_nnb_api_option(command, o->api_level);
  command.add_option("files", o->files, "INPUT [INPUT...] OUTPUT.yaml")->expected(-1);
  return o;
}

int run_nnb_template(const NnbTemplateOptions& o) {
  NN_CHECK_CODE(o.files.size() >= 2, nn::ErrorCode::kUsage) << "Input and Output arg is mandatory.";
  nn::formats::nnb::parse_variable_type(o.default_type, "-T");
  const nn::ir::Model model = import_model({o.files.begin(), o.files.end() - 1}, o.import.import_options());
  const nn::ir::Network& network = nn::formats::executor_network(model, find_executor(model, ""));
  nn::formats::nnb::check_function_table(network, nn::formats::nnb::effective_api_level(o.api_level));
  nn::formats::write_file_atomic(o.files.back(), nn::formats::nnb::settings_template(network, o.default_type));
  return 0;
}

}  // namespace nncli
