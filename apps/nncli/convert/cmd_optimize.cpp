// optimize: the inference passes (BatchNormalization folding, Identity removal, LayerNorm and Swish fusion)
// applied to a model, written as NNP.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "command.hpp"
#include "formats/nnp/nnp_writer.hpp"
#include "formats/passes/inference_passes.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/printable.hpp"

namespace nncli {

struct OptimizeOptions {
  std::string input, output;
  bool verbose = false;
};

std::shared_ptr<OptimizeOptions> setup_optimize(CLI::App& command) {
  auto o = std::make_shared<OptimizeOptions>();
  command.add_option("input", o->input, "Model to optimize (.nnp, .nntxt, .onnx)")->required();
  command.add_option("output", o->output, "Optimized model (.nnp)")->required();
  command.add_flag("-v,--verbose", o->verbose, "List what each pass changed");
  return o;
}

int run_optimize(const OptimizeOptions& opt) {
  const std::string ext = std::filesystem::path(opt.input).extension().string();
  NN_CHECK_CODE(ext != ".pb", nn::ErrorCode::kUnsupported) << "TensorFlow graphs are not supported";
  NN_CHECK_CODE(std::filesystem::path(opt.output).extension() == ".nnp", nn::ErrorCode::kUsage)
      << "optimize writes NNP: the output must end in .nnp, got '" << opt.output << "'";
  nn::ir::Model model = import_model({opt.input}, ImportOptions{});
  const auto identity = nn::formats::remove_identity(model);
  const auto transposes = nn::formats::fold_transposes(model);
  const auto exponents = nn::formats::scalar_exponents(model);
  const auto layer_norms = nn::formats::fuse_layer_norm(model);
  const auto folded = nn::formats::fold_batch_normalization(model);
  const auto swish = nn::formats::fuse_swish(model);
  const auto relu6 = nn::formats::fuse_relu6(model);
  const auto pruned = nn::formats::prune_unused_parameters(model);
  if (opt.verbose) {
    auto list = [](const char* pass, const std::vector<std::string>& lines) {
      std::printf("%s: %zu change%s\n", pass, lines.size(), lines.size() == 1 ? "" : "s");
      for (const auto& l : lines) std::printf("  %s\n", nn::printable(l).c_str());
    };
    list("remove_identity", identity);
    list("fold_transposes", transposes);
    list("scalar_exponents", exponents);
    list("fuse_layer_norm", layer_norms);
    list("fold_batch_normalization", folded);
    list("fuse_swish", swish);
    list("fuse_relu6", relu6);
    list("prune_unused_parameters", pruned);
  }
  nn::formats::save_nnp(model, opt.output);
  return 0;
}

}  // namespace nncli
