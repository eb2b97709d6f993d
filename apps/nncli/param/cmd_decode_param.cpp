// `nncli decode_param`: every parameter of a model or parameter file to a text file
// (docs/command_line.md#parameter-text-files).
#include <CLI/CLI.hpp>
#include <filesystem>

#include "command.hpp"
#include "common/command_options.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "param/param_text_io.hpp"

namespace nncli {

struct DecodeParamOptions {
  std::string param;
  std::string outdir;
};

std::shared_ptr<DecodeParamOptions> setup_decode_param(CLI::App& command) {
  auto o = std::make_shared<DecodeParamOptions>();
  add_param_option(command, o->param, "Parameter file (.nnp, .h5, .protobuf or .nntxt)")->required();
  add_outdir_option(command, o->outdir, "Output directory (created)");
  return o;
}

int run_decode_param(const DecodeParamOptions& options) {
  NN_CHECK(std::filesystem::exists(options.param)) << "'" << options.param << "': cannot open: no such file";
  NN_LOG_INFO << "Loading parameters...";
  nn::ir::Model model;
  nn::formats::load_parameters_into(model, options.param);
  std::error_code ec;
  std::filesystem::create_directories(options.outdir, ec);
  NN_CHECK(!ec && std::filesystem::is_directory(options.outdir))
      << "'" << options.outdir << "': cannot create the output directory" << (ec ? ": " + ec.message() : "");
  for (const auto& parameter : model.parameters) {
    NN_LOG_INFO << parameter.name;
    const std::string path = (std::filesystem::path(options.outdir) / (param_file_stem(parameter.name) + ".txt"));
    nn::formats::write_file_atomic(path, format_param_text(parameter));
  }
  NN_LOG_INFO << "Decode Parameter Completed.";
  return 0;
}

}  // namespace nncli
