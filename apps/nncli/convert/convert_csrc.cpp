// convert's CSRC exporter: C sources for nnabla-c-runtime into a directory (-b; settings ignored).
#include <filesystem>

#include "convert/convert_targets.hpp"
#include "formats/csrc/csrc_writer.hpp"
#include "nn/core/error.hpp"

namespace nncli {

void export_csrc(const nn::ir::Model& model, const std::string& output, const ConvertOptions& options) {
  // Upstream silently writes nothing when the directory does not exist; we create it, and refuse a file.
  NN_CHECK_CODE(!std::filesystem::exists(output) || std::filesystem::is_directory(output), nn::ErrorCode::kUsage)
      << output << ": -O CSRC writes a directory of C files, but this is an existing file";
  std::error_code ec;
  const bool created = !std::filesystem::exists(output, ec);
  std::filesystem::create_directories(output, ec);
  NN_CHECK(!ec) << output << ": cannot create the CSRC output directory: " << ec.message();
  try {
    nn::formats::csrc::write_csrc(model, output, options.batch_size);
  } catch (...) {
    if (created) std::filesystem::remove_all(output, ec);  // a failed run leaves no half-made folder
    throw;
  }
}

}  // namespace nncli
