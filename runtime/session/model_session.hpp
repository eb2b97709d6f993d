// Model loading shared by subcommands: file classification, NNP import with expansion, executor lookup.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"

namespace nncli {

// Whether a path names a model or parameter file (.nnp .nntxt .prototxt .protobuf .h5, or a directory)
// rather than a data file.
bool is_model_file(const std::string& path);

struct ImportOptions {
  std::string import_format = "NNP";  // -I; the extension of a single input file overrides it
  bool expand = true;                 // false: --nnp-no-expand-network
  int executor_index = -1;            // -E: keep only this executor and its network
  bool optimize = false;              // inference passes (formats/passes/inference_passes.hpp); --no-optimize
  // Expanding loops rewrites each optimizer's parameter list as plain names without learning-rate multipliers
  // (upstream's expanded file); true keeps the optimizers' own lists, which say what trains (as `train` does).
  bool training_lists = false;
  // Fixed shapes for named inputs (--input-shape; infer's .npy inputs for ONNX dynamic axes): a format with free
  // dims (ONNX dim_param, TFLite shape_signature -1, nnabla's batch) is imported at these shapes.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // ONNX: constants computed in the network instead of folded (onnx::import_model's at_run_time).
  std::set<std::string> onnx_at_run_time;
};

// Loads and merges the files (logging "Importing <file>"), then keeps -E's executor and expands loops;
// with options.optimize, runs the inference passes (each change logged at -v).
nn::ir::Model import_model(const std::vector<std::string>& files, const ImportOptions& options);

// The executor named `name` ("" = the first one; formats/passes/export_target.hpp). Unknown names list the
// valid executors.
const nn::ir::Executor& find_executor(const nn::ir::Model& model, const std::string& name);

// Loads `model`'s parameters into `store`; with `take` (the model's own list, which no later reader needs), moves
// them there instead and leaves the list empty (ParameterStore::take: one copy of the weights in memory).
void load_parameters(nn::ir::ParameterStore& store, const nn::ir::Model& model,
                     std::vector<nn::ir::Parameter>* take);

// Parameter variables of the network that the model holds no data for, in declaration order.
std::vector<std::string> missing_parameters(const nn::ir::Model& model, const nn::ir::Network& network);

}  // namespace nncli
