// GraphBuilder: the object API of the generated schema subset, packed with FlatBufferBuilder at the end.
#include "formats/tflite/tflite_graph.hpp"

#include <cstring>

#include "nn/core/error.hpp"

namespace nn::formats::tflite_io {

const char* builtin_op_name(int32_t code) {
  switch (code) {
#define TFLITE_OP(name, c) \
  case c:                  \
    return #name;
#include "formats/tflite/tflite_ops.def"
#undef TFLITE_OP
    default: return "";
  }
}

GraphBuilder::GraphBuilder() {
  model_.version = 3;
  model_.buffers.push_back(std::make_unique<tflite::BufferT>());  // buffer 0: the empty one
  model_.subgraphs.push_back(std::make_unique<tflite::SubGraphT>());
  graph_ = model_.subgraphs.back().get();
  graph_->name = "main";
}

std::string GraphBuilder::fresh_name(const std::string& base) {
  if (!names_.count(base)) return base;
  for (int i = 1;; ++i) {
    std::string n = base + "_" + std::to_string(i);
    if (!names_.count(n)) return n;
  }
}

int GraphBuilder::tensor(const std::string& name, const Shape& shape, tflite::TensorType type) {
  auto t = std::make_unique<tflite::TensorT>();
  t->name = fresh_name(name);
  for (int64_t d : shape) {
    NN_CHECK(d >= 0 && d <= INT32_MAX) << "tensor '" << name << "': dimension " << d << " does not fit TFLite";
    t->shape.push_back(int32_t(d));
  }
  t->type = type;
  t->buffer = 0;
  int index = int(graph_->tensors.size());
  names_[t->name] = index;
  graph_->tensors.push_back(std::move(t));
  return index;
}

int GraphBuilder::const_bytes(const std::string& name, const Shape& shape, tflite::TensorType type,
                              const void* data, size_t bytes) {
  int index = tensor(name, shape, type);
  auto buffer = std::make_unique<tflite::BufferT>();
  buffer->data.resize(bytes);
  if (bytes) std::memcpy(buffer->data.data(), data, bytes);
  at(index).buffer = uint32_t(model_.buffers.size());
  model_.buffers.push_back(std::move(buffer));
  return index;
}

int GraphBuilder::const_float(const std::string& name, const Shape& shape, const std::vector<float>& data) {
  NN_INTERNAL_CHECK(int64_t(data.size()) == shape_size(shape)) << name;
  return const_bytes(name, shape, tflite::TensorType_FLOAT32, data.data(), data.size() * sizeof(float));
}

int GraphBuilder::const_int32(const std::string& name, const Shape& shape, const std::vector<int32_t>& data) {
  NN_INTERNAL_CHECK(int64_t(data.size()) == shape_size(shape)) << name;
  return const_bytes(name, shape, tflite::TensorType_INT32, data.data(), data.size() * sizeof(int32_t));
}

const Shape GraphBuilder::shape(int index) const {
  const auto& s = graph_->tensors.at(size_t(index))->shape;
  return Shape(s.begin(), s.end());
}

void GraphBuilder::op(BuiltinOp code, std::vector<int> inputs, std::vector<int> outputs,
                      tflite::BuiltinOptionsUnion options) {
  int32_t c = int32_t(code);
  auto it = opcode_index_.find(c);
  if (it == opcode_index_.end()) {
    auto oc = std::make_unique<tflite::OperatorCodeT>();
    oc->builtin_code = c;
    oc->deprecated_builtin_code = int8_t(c < 127 ? c : 127);
    oc->version = 1;
    it = opcode_index_.emplace(c, uint32_t(model_.operator_codes.size())).first;
    model_.operator_codes.push_back(std::move(oc));
  }
  auto o = std::make_unique<tflite::OperatorT>();
  o->opcode_index = it->second;
  o->inputs = std::move(inputs);
  o->outputs = std::move(outputs);
  o->builtin_options = std::move(options);
  graph_->operators.push_back(std::move(o));
}

void GraphBuilder::set_io(std::vector<int> inputs, std::vector<int> outputs) {
  graph_->inputs = std::move(inputs);
  graph_->outputs = std::move(outputs);
}

std::string GraphBuilder::finish(const std::string& description) { return pack_model(model_, description); }

std::string pack_model(tflite::ModelT& model, const std::string& description) {
  model.description = description;
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(tflite::Model::Pack(fbb, &model), tflite::ModelIdentifier());
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

}  // namespace nn::formats::tflite_io
