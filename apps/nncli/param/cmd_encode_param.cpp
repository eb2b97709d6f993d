// `nncli encode_param`: a directory of parameter text files (decode_param's layout) to .h5 or .protobuf.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>

#include "command.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/common/file_format.hpp"
#include "formats/nnp/nnp_writer.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "param/param_text_io.hpp"

namespace nncli {

struct EncodeParamOptions {
  std::string indir;
  std::string param;
};

std::shared_ptr<EncodeParamOptions> setup_encode_param(CLI::App& command) {
  auto o = std::make_shared<EncodeParamOptions>();
  command.add_option("-i,--indir", o->indir, "Directory of parameter text files")->required();
  command.add_option("-p,--param", o->param, "Output parameter file (.h5 or .protobuf)")->required();
  return o;
}

int run_encode_param(const EncodeParamOptions& options) {
  namespace fs = std::filesystem;
  const std::string ext = nn::formats::file_extension(options.param);
  NN_CHECK_CODE(ext == "h5" || ext == "protobuf", nn::ErrorCode::kUsage)
      << "'" << options.param << "': the output must end in .h5 or .protobuf";
  NN_CHECK(fs::is_directory(options.indir)) << "'" << options.indir << "': not a directory";
  NN_LOG_INFO << "Loading parameters...";
  // Upstream reads os.listdir() order; the files are sorted here so the output does not depend on the
  // file system.
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(options.indir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  NN_CHECK(!files.empty()) << "'" << options.indir << "': no parameter files";
  nn::ir::Model model;
  for (const auto& file : files) {
    const std::string name = param_name_from_stem(file.stem().string());
    NN_LOG_INFO << name;
    model.parameters.push_back(
        parse_param_text(nn::formats::read_file(file.string()), name, "'" + file.string() + "'"));
  }
  NN_LOG_INFO << "Saving parameters...";
  if (ext == "h5")
    nn::formats::save_h5_parameters(model.parameters, options.param);
  else
    nn::formats::save_protobuf(model, options.param, true);
  NN_LOG_INFO << "Encode Parameter Completed.";
  return 0;
}

}  // namespace nncli
