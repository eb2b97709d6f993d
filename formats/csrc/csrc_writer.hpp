// CSRC export (docs/nnb_format.md#csrc-export): the C sources nnabla's converter writes for executor 0's network.
#pragma once
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats::csrc {

struct CsrcFile {
  std::string name;  // file name inside the output directory, e.g. "MainRuntime_inference.c"
  std::string content;
};

// The files for executor 0's network at `batch_size` (< 1: the network's), in upstream's order:
// N_parameters.h/.c (only with parameters), N_inference.h/.c, N_example.c, GNUmakefile.
std::vector<CsrcFile> generate_csrc(const nn::ir::Model& model, int64_t batch_size);

// Writes generate_csrc()'s files atomically into the existing directory `dir`.
void write_csrc(const nn::ir::Model& model, const std::string& dir, int64_t batch_size);

}  // namespace nn::formats::csrc
