// `dump --stats`: per-function cost estimates (MACs, FLOPs), parameter counts and activation sizes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nncli {

struct FunctionStats {
  std::string type;
  std::string name;
  int64_t macs = 0;          // multiply-accumulates (Affine, convolutions, BatchMatmul)
  int64_t flops = 0;         // 2 per MAC plus elementwise work, an estimate
  int64_t parameters = 0;    // elements of the Parameter inputs of this function
  int64_t output_bytes = 0;  // float32 bytes of its outputs
};

struct NetworkStats {
  std::string name;
  int64_t batch_size = 1;
  std::vector<FunctionStats> functions;
  int64_t macs = 0;
  int64_t flops = 0;
  int64_t parameters = 0;        // each parameter counted once
  int64_t activation_bytes = 0;  // float32 bytes of every Buffer variable
};

// From the declared variable shapes (negative dims = batch_size); needs no kernels.
NetworkStats network_stats(const nn::ir::Network& network, int64_t batch_size);

}  // namespace nncli
