// convert -S / -c: choose the supported set per export format, split (formats/passes) and export each piece.
#include "convert/convert_split.hpp"

#include <filesystem>
#include <iostream>
#include <set>

#include "formats/passes/split_network.hpp"
#include "function_info/function_info_sets.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace {

namespace fi = function_info;

std::set<std::string> intersect(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::set<std::string> out;
  for (const auto& x : a)
    if (b.count(x)) out.insert(x);
  return out;
}

// docs/command_line.md#convert-splitting: NNB the list itself; ONNX what the exporter supports (and the
// list); others the list or every nnabla function.
std::set<std::string> supported_set(const ConvertOptions& o) {
  std::set<std::string> listed;
  if (!o.config.empty()) listed = fi::read_function_list(o.config).names();
  auto table = [](const fi::TargetTable& t) {
    NN_CHECK_CODE(t.available, nn::ErrorCode::kUnsupported) << t.reason;
    return t.functions;
  };
  if (o.export_format == "NNB" || o.export_format == "CSRC")
    return o.config.empty() ? table(fi::nnb_table(o.api_level)) : listed;
  if (o.export_format == "ONNX") {
    const auto onnx = table(fi::onnx_table(fi::parse_opset(o.define_version).value_or(fi::kDefaultOnnxOpset)));
    return o.config.empty() ? onnx : intersect(onnx, listed);
  }
  return o.config.empty() ? table(fi::nnabla_table()) : listed;
}

}  // namespace

bool convert_in_pieces(const nn::ir::Model& model, const ConvertOptions& options, ConvertExporter exporter) {
  if (options.split.empty() && options.config.empty()) return false;
  const nn::ir::Network& network = nn::formats::split_target_network(model);
  std::vector<nn::formats::FunctionRange> ranges;
  if (!options.split.empty()) {
    ranges = nn::formats::parse_split_ranges(options.split, int(network.functions.size()));
  } else {
    const std::set<std::string> supported = supported_set(options);
    if (!nn::formats::uses_unsupported(network, supported)) return false;
    ranges = nn::formats::supported_ranges(network, supported);
    NN_CHECK_CODE(!ranges.empty(), nn::ErrorCode::kUnsupported)
        << "'" << options.config << "': network '" << network.name << "' has no function of the list";
  }
  ConvertOptions piece_options = options;
  piece_options.split.clear();
  piece_options.config.clear();
  std::vector<std::pair<std::string, nn::ir::Model>> pieces;
  for (const auto& range : ranges) {
    const std::string output = nn::formats::split_output_name(options.output, range);
    NN_LOG_INFO << "   Shrink " << range.first << " to " << range.last << ".";
    NN_LOG_INFO << "    Output to [" << output << "]";
    NN_CHECK(options.force || options.export_format == "CSRC" || !std::filesystem::exists(output))
        << "'" << output << "' already exists (use -f to overwrite it)";
    nn::ir::Model piece = nn::formats::shrink_model(model, range);
    nn::with_context("'" + output + "'", [&] { exporter(piece, output, piece_options); });
    pieces.emplace_back(output, std::move(piece));
  }
  std::cout << nn::formats::split_summary(pieces) << std::flush;
  return true;
}

}  // namespace nncli
