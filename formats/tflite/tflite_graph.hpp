// GraphBuilder: appends tensors, constant buffers and operators to one TFLite subgraph and serializes it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"
#include "tflite_subset_generated.h"

namespace nn::formats::tflite_io {

enum class BuiltinOp : int32_t {
#define TFLITE_OP(name, code) name = code,
#include "formats/tflite/tflite_ops.def"
#undef TFLITE_OP
};
const char* builtin_op_name(int32_t code);  // "CONV_2D"; "" for a code outside tflite_ops.def

class GraphBuilder {
 public:
  GraphBuilder();
  // An activation tensor (no data).
  int tensor(const std::string& name, const Shape& shape, tflite::TensorType type = tflite::TensorType_FLOAT32);
  int const_float(const std::string& name, const Shape& shape, const std::vector<float>& data);
  int const_int32(const std::string& name, const Shape& shape, const std::vector<int32_t>& data);
  int const_bytes(const std::string& name, const Shape& shape, tflite::TensorType type, const void* data,
                  size_t bytes);
  void op(BuiltinOp code, std::vector<int> inputs, std::vector<int> outputs,
          tflite::BuiltinOptionsUnion options = {});
  void set_io(std::vector<int> inputs, std::vector<int> outputs);
  tflite::TensorT& at(int index) { return *graph_->tensors.at(size_t(index)); }
  const Shape shape(int index) const;
  size_t num_tensors() const { return graph_->tensors.size(); }
  // A name not used by any tensor yet, from `base`.
  std::string fresh_name(const std::string& base);
  std::string finish(const std::string& description);
  tflite::ModelT& model() { return model_; }
  tflite::ModelT take_model() { return std::move(model_); }  // the builder is spent afterwards

 private:
  tflite::ModelT model_;
  tflite::SubGraphT* graph_;
  std::map<int32_t, uint32_t> opcode_index_;
  std::map<std::string, int> names_;
};

// The .tflite bytes of `model` with `description` set.
std::string pack_model(tflite::ModelT& model, const std::string& description);

}  // namespace nn::formats::tflite_io
