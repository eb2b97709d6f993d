// `convert --verify`: runs the source model and the written file through nncli's engine on the same inputs.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "convert/convert_targets.hpp"
#include "nn/ir/model.hpp"

namespace nncli {

struct VerifySettings {
  double atol = 1e-4;  // |a - b| <= atol + rtol * |b| for every element, as numpy.allclose
  double rtol = 1e-3;
  std::string format = "text";  // text: a table on stdout; json: one object
  uint32_t seed = 0;            // random inputs when no files are given
};

// Adds --verify [INPUT...], --atol, --rtol, --verify-format and --verify-seed to convert.
void add_verify_options(CLI::App& command, ConvertOptions& options, VerifySettings& settings);

// `--verify` takes the arguments after it; gives back the ones that are not data files (.npy, .bin, images)
// to the positional files (so `convert --verify a.nnp b.onnx` still converts a.nnp to b.onnx).
void split_verify_arguments(std::vector<std::string>& files, std::vector<std::string>& verify_inputs);

// Runs `source` (the imported model) and the file at options.output on options.verify_inputs (or deterministic
// uniform [-1, 1) inputs), prints per-output errors; throws kCheckFailed when an output differs beyond the
// tolerances.
void verify_conversion(const nn::ir::Model& source, const ConvertOptions& options, const VerifySettings& settings);

}  // namespace nncli
