// Feeding networks during training and evaluation: dataset columns and reserved values (%iter, ...) into
// data variables, generator variables, and the mean of an output.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"
#include "nn/train/batch_source.hpp"

namespace nn::train::detail {

// Where training stands, for the reserved data names.
struct IterationInfo {
  int64_t it = 0;
  int64_t iter_per_epoch = 1;
  int64_t max_epoch = 0;
};

// One data variable bound to a dataset column (or a reserved %name).
struct DataBinding {
  VariablePtr variable;
  std::string variable_name, data_name;
  std::string dataset;  // "" for reserved names
  int column = -1;      // column in that dataset's batches
};

// Binds every data_variable to the first of `datasets` that has its column; reserved names (%iter,
// %max_iter, %epoch, %epochf, %max_epoch, %progress) need none. `owner` is e.g. "optimizer 'o'".
// Throws `Variable "<d>" is not found in dataset "<ds>", <owner>`.
std::vector<DataBinding> bind_data(const std::vector<ir::DataVariable>& data_variables,
                                   const ir::BuiltNetwork& network,
                                   const std::vector<std::pair<std::string, const BatchSource*>>& datasets,
                                   const std::string& owner);

// Writes the bound columns of `batches` (dataset name -> batch) and the reserved values into the variables.
void assign_data(const std::vector<DataBinding>& bindings,
                 const std::vector<std::pair<std::string, const Batch*>>& batches, const IterationInfo& info);

// A data variable a function reads as class indices (a loss's label, Embed's x), with the bound its values
// must stay under.
struct IndexCheck {
  size_t binding = 0;  // into the bindings it was made from
  int64_t bound = 0;
  std::string function;  // "'Loss' (SoftmaxCrossEntropy)"
};

// Every index input of the functions behind `outputs` that a dataset column feeds directly.
std::vector<IndexCheck> bind_index_checks(const std::vector<DataBinding>& bindings,
                                          const std::vector<VariablePtr>& outputs);

// After assign_data: throws, naming the dataset row (the batch's origin) and the function, when an index
// lies outside [0, bound).
void check_indices(const std::vector<IndexCheck>& checks, const std::vector<DataBinding>& bindings,
                   const std::vector<std::pair<std::string, const Batch*>>& batches);

// Copies values of `shape` into var, broadcasting numpy-style when the shapes differ; throws
// `Shape does not match between data "<d>" and variable "<v>" (<a> != <b>).` when they cannot.
void copy_into_variable(Variable& var, const Shape& shape, const float* values, const std::string& data_name,
                        const std::string& variable_name);

struct GeneratorBinding {
  VariablePtr variable;
  std::string type;
  double multiplier = 0.0;
};
std::vector<GeneratorBinding> bind_generators(const std::vector<ir::GeneratorVariable>& generators,
                                              const ir::BuiltNetwork& network);
// Normal N(0, m), Uniform U(-m, m), Constant m, Range 0, m, 2m, ... along the last axis (global RNG).
void fill_generators(const std::vector<GeneratorBinding>& generators);

// Mean of a variable's data, accumulated in double.
double mean_value(Variable& var);

// need_grad of every variable produced inside the graphs of `outputs` recomputed from its inputs
// (after parameters were frozen or unfrozen).
void refresh_need_grad(const std::vector<VariablePtr>& outputs);

}  // namespace nn::train::detail
