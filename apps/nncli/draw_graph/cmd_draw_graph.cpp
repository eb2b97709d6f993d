// `nncli draw_graph`: each network of an NNP/nntxt drawn through the Graphviz library
// (docs/command_line.md#draw_graph).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>

#include "command.hpp"
#include "common/command_options.hpp"
#include "common/input_file_check.hpp"
#include "draw_graph/graph_draw_dot.hpp"
#include "formats/common/atomic_file.hpp"
#include "draw_graph/graph_draw_render.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace {
constexpr size_t kMaxLaidOutFunctions = 5000;
}  // namespace

struct DrawGraphOptions {
  std::string input;
  std::string output_dir = "draw_out";
  std::vector<std::string> networks;
  std::string format = "png";
  bool no_expand = false;
};

std::shared_ptr<DrawGraphOptions> setup_draw_graph(CLI::App& command) {
  auto o = std::make_shared<DrawGraphOptions>();
  command.add_option("input", o->input, "Path to input nnp or nntxt")->required()->check(existing_input());
  command.add_option("-o,--output-dir", o->output_dir, "Output directory")->capture_default_str();
  command.add_option("-n,--network", o->networks, "Network names to be drawn (repeatable; default: all)");
  command.add_option("-f,--format", o->format, "Graphviz output format (png, svg, pdf, dot, ...)")
      ->capture_default_str();
  add_no_expand_flag(command, o->no_expand, "Draw repeat/recurrent loops unexpanded, one cluster per loop");
  return o;
}

namespace {

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

}  // namespace

int run_draw_graph(const DrawGraphOptions& options) {
  NN_LOG_INFO << "Loading: " << options.input;
  ImportOptions import;
  import.expand = !options.no_expand;
  const nn::ir::Model model = import_model({options.input}, import);
  std::vector<std::string> names;
  for (const auto& n : model.networks) names.push_back(n.name);
  NN_LOG_INFO << "Available networks: " << quoted_list(names);

  std::vector<std::string> draw = options.networks;
  if (draw.empty()) {
    NN_LOG_INFO << "Drawing all networks as `--network` option is not passed.";
    draw = names;
  }
  for (const auto& n : draw)
    NN_CHECK(std::find(names.begin(), names.end(), n) != names.end())
        << "Specified a network `" << n << "` that doesn't exist (networks: " << quoted_list(names) << ")";

  std::error_code ec;
  std::filesystem::create_directories(options.output_dir, ec);
  NN_CHECK(std::filesystem::is_directory(options.output_dir))
      << "'" << options.output_dir << "': cannot create the output directory" << (ec ? ": " + ec.message() : "");
  NN_LOG_INFO << "Save drawn network(s) into `" << options.output_dir << "`.";

  for (const auto& name : draw) {
    NN_LOG_INFO << "Drawing: " << name;
    const nn::ir::Network& network = *model.find_network(name);
    if (network_outputs(network).empty()) {
      NN_LOG_INFO << "No output in `" << name << "`. Skipping.";
      continue;
    }
    // Graphviz's dot layout is superlinear and crashes inside libgvc on very long chains (a 100,000-function
    // chain: SIGSEGV after 100 s); the DOT text itself can still be written, without a layout.
    const bool too_large = network.functions.size() > kMaxLaidOutFunctions;
    NN_CHECK(options.format == "dot" || !too_large)
        << "network '" << name << "' has " << network.functions.size()
        << " functions, more than Graphviz can lay out (" << kMaxLaidOutFunctions
        << "); write the DOT text with -f dot instead";
    std::string file = name;
    std::replace(file.begin(), file.end(), ' ', '_');
    std::replace(file.begin(), file.end(), '/', '_');  // a '/' would leave the output directory
    const std::string path = (std::filesystem::path(options.output_dir) / (file + "." + options.format)).string();
    nn::with_context("network '" + name + "'", [&] {
      if (too_large)
        nn::formats::write_file_atomic(path, network_to_dot(model, network));
      else
        render_dot(network_to_dot(model, network), options.format, path);
    });
    NN_LOG_VERBOSE << "Wrote " << path;
  }
  return 0;
}

}  // namespace nncli
