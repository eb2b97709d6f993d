// NNB executor and dumper: the reader's network through nnb_to_model (libnn ops) or nnablart's dump.
#include "nnb_runner.hpp"

#include "formats/common/file_format.hpp"
#include "formats/nnb/nnb_dump.hpp"
#include "formats/nnb/nnb_file.hpp"
#include "formats/nnb/nnb_to_ir.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace nnb = nn::formats::nnb;

namespace {

nnb::NnbNetwork read_logged(const std::string& path) {
  NN_LOG_INFO << "Importing " << path;
  nnb::NnbNetwork n = nnb::read_nnb_file(path);
  for (const auto& w : n.warnings) NN_LOG_WARNING << "'" << path << "': " << w;
  return n;
}

}  // namespace

bool is_nnb_file(const std::string& path) { return nn::formats::file_extension(path) == "nnb"; }

nn::ir::Model load_nnb_model(const std::string& path) {
  const nnb::NnbNetwork n = read_logged(path);
  return nn::with_context("'" + path + "'", [&] { return nnb::nnb_to_model(n); });
}

std::string dump_nnb_file(const std::string& path) { return nnb::dump_nnb(read_logged(path)); }

}  // namespace nncli
