// The state of one TFLite -> ir::Model import: tensors as nnabla variables, helpers that append functions.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/tflite/tflite_quantized_io.hpp"
#include "nn/ir/model.hpp"
#include "tflite_subset_generated.h"

namespace nn::formats::tflite_import {

class Importer {
 public:
  // `batch` replaces dim 0 of every activation tensor whose shape_signature has -1 there (the dynamic batch).
  Importer(const tflite::ModelT& model, int64_t batch);
  const tflite::TensorT& tensor(int index) const { return *graph_.tensors.at(size_t(index)); }
  Shape shape(int index) const;
  bool is_constant(int index) const;
  std::vector<float> constant(int index) const;         // dequantized values
  std::vector<int64_t> constant_ints(int index) const;  // an INT32 / INT64 constant
  bool is_quantized(int index) const;

  // The float variable of tensor `index` (a constant becomes a parameter on first use).
  std::string var(int index);
  // A fresh intermediate variable of `shape`.
  std::string temp(const std::string& base, const Shape& shape);
  // A new parameter holding `data`.
  std::string param(const std::string& base, const Shape& shape, std::vector<float> data);
  void fn(const std::string& type, std::vector<std::string> inputs, std::vector<std::string> outputs,
          Attrs attrs = {});
  // Writes the op's result `value` into output tensor `index`: fused activation, then (for a quantized
  // tensor) rounding and saturation to its grid.
  void finish(const std::string& value, int index,
              tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE);
  std::string op_name() const { return op_name_; }
  void set_op_name(const std::string& n) { op_name_ = n; }
  // A graph input: a float variable, or raw integers dequantized for a quantized tensor.
  void declare_input(int index);
  ir::Model build();

 private:
  std::string unique(const std::string& base);
  const tflite::ModelT& model_;
  const tflite::SubGraphT& graph_;
  const int64_t batch_;
  ir::Network network_;
  ir::Model out_;
  std::map<int, std::string> vars_;
  std::map<int, std::string> raw_inputs_;
  std::map<std::string, int> used_names_;
  std::string op_name_;
  int counter_ = 0;
};

// An int8, uint8 or int16 tensor with a scale: its type's range, its (first) scale and zero point.
std::optional<QuantizedIo> quantized_io(const tflite::TensorT& t);

// A tensor whose shape_signature starts with -1: its dim 0 is the dynamic batch.
bool has_dynamic_batch(const tflite::TensorT& t);

using Rule = std::function<void(Importer&, const tflite::OperatorT&)>;
const Rule* find_import_rule(int32_t builtin_code);
void add_transpose_conv_rule(std::map<int32_t, Rule>& rules);  // tflite_import_deconv.cpp
void add_leaky_relu_rule(std::map<int32_t, Rule>& rules);      // tflite_import_leaky_relu.cpp

}  // namespace nn::formats::tflite_import
