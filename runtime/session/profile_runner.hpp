// `nncli profile` measurements: each optimizer (training: forward, backward, solver update, data) and each
// executor (inference forward) of a model, per function through the forward/backward hooks.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/core/context.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"
#include "profile_stats.hpp"

namespace nncli::profile {

// One measured item: a step of the iteration (load_dataset, forward_all, update ...) or one function.
struct Item {
  std::string csv_name;       // upstream's row name, e.g. "forward_function (Affine : Affine)"
  std::string kind;           // "step", "forward_function" or "backward_function"
  std::string function_name;  // for functions: the node name in the network
  std::string function_type;
  std::vector<double> samples_ms;
  Stats stats;
};

struct TargetResult {
  std::string kind;  // "optimizer" or "executor"
  std::string name, network;
  std::string title;  // profile.csv column title
  int64_t batch_size = 0;
  std::string data_note;  // where the data came from
  std::string solver;     // optimizers: the solver type and the number of parameters it trains
  size_t trained_parameters = 0;
  int64_t sub_batch = 0;  // > 0: the batch ran as chunks of this many samples on split_threads threads
  int split_threads = 0;
  std::vector<Item> items;
  Stats iteration;          // one whole iteration (training step or inference forward)
  double throughput = 0.0;  // samples per second at the median iteration time
  size_t peak_bytes = 0;    // nn::NdArray::peak_bytes() over this target's build and runs
  WarmupReport warmup;
  int64_t runs = 0;
};

struct ProfileSettings {
  LoopSettings loop;
  nn::Context context = nn::cpu_context();
  int64_t batch_size = -1;  // <= 0: the dataset's (optimizers) or the network's batch size
  uint32_t seed = 0;
  bool optimizers = true;
  bool executors = true;
  bool function_times = true;  // false: whole iterations only, no timer around each function
};

// Gives every function node of a built network the name of its function in the file (the graph builder
// leaves nodes unnamed), so timings and comparisons can name functions.
void name_function_nodes(const nn::ir::Network& network, const nn::ir::BuiltNetwork& built);

// Profiles every optimizer and executor of an expanded model, in file order. The last target takes the model's
// parameters (ParameterStore::take): `model` is left without them.
std::vector<TargetResult> profile_model(nn::ir::Model& model, const ProfileSettings& settings);

}  // namespace nncli::profile
