// The state of one NNP -> TFLite export: nnabla variables mapped to TFLite tensors with their axis order.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "formats/tflite/tflite_export.hpp"
#include "formats/tflite/tflite_graph.hpp"
#include "nn/ir/model.hpp"

namespace nn::formats::tflite_export {

using Perm = std::vector<int>;  // TFLite axis i holds nnabla axis perm[i]
Perm identity_perm(size_t rank);
Perm channel_last_perm(size_t rank);  // (0, 2, ..., r-1, 1)
bool is_identity(const Perm& p);
Shape permute(const Shape& s, const Perm& p);

struct Value {
  int tensor = -1;
  Perm perm;
};

class Exporter {
 public:
  Exporter(const ir::Model& model, const ir::Network& network, const ir::Executor& executor);

  tflite_io::GraphBuilder& g() { return graph_; }
  const Shape& shape(const std::string& var) const;  // nnabla shape (batch set)
  bool is_parameter(const std::string& var) const;
  const ir::Parameter& parameter(const std::string& var) const;  // throws when it is no parameter
  bool is_output(const std::string& var) const { return outputs_.count(var) != 0; }

  // The tensor of `var` in whatever order it has.
  Value value(const std::string& var);
  // The tensor of `var` in the order `perm` (a TRANSPOSE is added, or a constant permuted, when needed).
  int in_order(const std::string& var, const Perm& perm);
  // A new activation tensor for nnabla variable `var` in order `perm`, registered as its value.
  int define(const std::string& var, const Perm& perm);
  void alias(const std::string& var, const Value& v) { values_[var] = v; }
  // The function that alone reads `var` (and `var` is no executor output), or nullptr.
  const ir::Function* sole_consumer(const std::string& var) const;
  void absorb(const ir::Function& f) { absorbed_.insert(&f); }
  bool absorbed(const ir::Function& f) const { return absorbed_.count(&f) != 0; }
  int transpose(int tensor, const Perm& perm, const std::string& name);  // TFLite tensor axes reordered
  std::string fresh(const std::string& base) { return graph_.fresh_name(base); }

 private:
  const ir::Model& model_;
  const ir::Network& network_;
  tflite_io::GraphBuilder graph_;
  std::map<std::string, Value> values_;
  std::map<std::string, std::vector<const ir::Function*>> consumers_;
  std::set<std::string> outputs_;
  std::set<const ir::Function*> absorbed_;
};

// Full-integer int8 rewrite of a float graph (tflite_quantize.cpp): ranges by tensor name.
void quantize_int8(tflite::ModelT& model, const std::map<std::string, CalibrationRange>& ranges, bool float_io);

// int8 operators whose output takes its input's scale and zero point (TFLite's quantization spec).
bool keeps_int8_grid(int32_t builtin_code);
// The calibrated range of a tensor by name, or nullptr.
using RangeLookup = std::function<const CalibrationRange*(const std::string&)>;
// One range (the union) for every CONCATENATION's inputs, its output and the tensors their grid comes from
// through grid-keeping operators, by tensor index (tflite_quantize_concat.cpp).
std::map<int, CalibrationRange> shared_concat_ranges(const tflite::ModelT& model, const RangeLookup& range_of);

// Dynamic batch (tflite_dynamic_batch.cpp): `at_one` and `at_two` are the same network exported at batch 1
// and 2. Tensor dims that are 1 vs 2 become -1 in at_one's shape_signature, and so do RESHAPE targets; any
// other difference (a constant or a dim that folds the batch in) throws kUnsupported naming it.
void merge_dynamic_batch(tflite::ModelT& at_one, const tflite::ModelT& at_two);

using Rule = std::function<void(Exporter&, const ir::Function&)>;
// The rule for an nnabla function type, or nullptr.
const Rule* find_rule(const std::string& type);
std::vector<std::string> rule_names();
// Each file of rules registers its own through one of these (called by find_rule on first use).
void add_layer_rules(std::map<std::string, Rule>& rules);
void add_elementwise_rules(std::map<std::string, Rule>& rules);
void add_shape_rules(std::map<std::string, Rule>& rules);
void add_deconvolution_rules(std::map<std::string, Rule>& rules);

}  // namespace nn::formats::tflite_export
