// NNB export (docs/nnb_format.md): executor 0's network, settings, buffer sharing, parameter encoding.
#pragma once
#include <string>
#include <vector>

#include "formats/nnb/nnb_file.hpp"
#include "formats/nnb/nnb_settings.hpp"
#include "nn/ir/model.hpp"

namespace nn::formats::nnb {

struct NnbExportOptions {
  uint32_t version = 2;       // -d nnb_N
  int api_level = -1;         // --api (-1: newest)
  int64_t batch_size = 1;     // < 1: the network's
  VariableType default_type;  // -T
  NnbSettings settings;
  bool truncate_binary_weights = true;  // NNB keeps only element 0 of binary-convolution float weights
};

// Memory figures of an exported network (nncli's convert report).
struct MemoryPlan {
  int64_t weight_bytes[4] = {0, 0, 0, 0};  // per DataType
  int64_t activation_bytes = 0;            // all buffers after sharing
  int64_t unshared_bytes = 0;              // sum of every buffer variable alone
  struct FunctionRow {
    std::string name, type;
    int64_t live_bytes = 0;  // bytes of the buffers live at that function
  };
  std::vector<FunctionRow> functions;
};

// Buffer sharing as upstream plans it: returns actual buffer sizes; assignment[b] = actual index (-1: none).
std::vector<int64_t> plan_buffers(const std::vector<int64_t>& sizes, const std::vector<std::vector<int>>& live,
                                  std::vector<int>& assignment);

// kUnsupported listing every function of the network that API level `level` lacks (formats/passes'
// convert_each_function report; `format` names the target in it).
void check_function_table(const nn::ir::Network& network, int level, const std::string& format = "NNB");

NnbNetwork build_nnb(const nn::ir::Model& model, const NnbExportOptions& options, MemoryPlan* plan = nullptr);

}  // namespace nn::formats::nnb
