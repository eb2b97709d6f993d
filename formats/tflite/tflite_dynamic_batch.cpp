// Dynamic batch for TFLite export: two traces of the graph (batch 1 and 2) merged into shape_signature -1.
#include <cstring>

#include "formats/tflite/tflite_exporter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::tflite_export {
namespace {

using tflite_io::BuiltinOp;

std::string dims_text(const std::vector<int32_t>& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + ")";
}

// 1 vs 2 -> -1; equal dims are kept; anything else is the batch folded into another axis.
std::vector<int32_t> merged(const std::vector<int32_t>& one, const std::vector<int32_t>& two,
                            const std::string& what) {
  NN_CHECK_CODE(one.size() == two.size(), ErrorCode::kUnsupported)
      << what << ": its rank depends on the batch size";
  std::vector<int32_t> out = one;
  for (size_t i = 0; i < one.size(); ++i) {
    if (one[i] == two[i]) continue;
    NN_CHECK_CODE(one[i] == 1 && two[i] == 2, ErrorCode::kUnsupported)
        << what << " is " << dims_text(one) << " at batch 1 and " << dims_text(two)
        << " at batch 2: the batch is folded into another axis; export with a fixed batch size (-b)";
    out[i] = -1;
  }
  return out;
}

std::vector<int32_t> ints_of(const tflite::BufferT& b) {
  std::vector<int32_t> v(b.data.size() / 4);
  if (!v.empty()) std::memcpy(v.data(), b.data.data(), v.size() * 4);
  return v;
}

}  // namespace

void merge_dynamic_batch(tflite::ModelT& at_one, const tflite::ModelT& at_two) {
  tflite::SubGraphT& g = *at_one.subgraphs.at(0);
  const tflite::SubGraphT& h = *at_two.subgraphs.at(0);
  NN_INTERNAL_CHECK(g.tensors.size() == h.tensors.size() && g.operators.size() == h.operators.size() &&
                    at_one.buffers.size() == at_two.buffers.size())
      << "the graph exported at batch 2 differs in structure from the one at batch 1";
  // The operator reading each constant (the RESHAPE target is the one constant allowed to differ).
  std::vector<tflite::OperatorT*> reader(g.tensors.size(), nullptr);
  for (const auto& op : g.operators)
    for (int32_t i : op->inputs)
      if (i >= 0) reader[size_t(i)] = op.get();
  auto code = [&](const tflite::OperatorT& op) { return at_one.operator_codes.at(op.opcode_index)->builtin_code; };
  bool any = false;
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    tflite::TensorT& t = *g.tensors[i];
    const tflite::TensorT& u = *h.tensors[i];
    const std::string what = "tensor '" + t.name + "'";
    tflite::BufferT& data = *at_one.buffers.at(t.buffer);
    if (data.data.empty()) {
      if (t.shape == u.shape) continue;
      t.shape_signature = merged(t.shape, u.shape, what);
      any = true;
      continue;
    }
    const tflite::BufferT& other = *at_two.buffers.at(u.buffer);
    NN_CHECK_CODE(t.shape == u.shape, ErrorCode::kUnsupported)
        << "constant " << what << " has a batch-sized shape";
    if (data.data == other.data) continue;
    tflite::OperatorT* op = reader[i];
    const bool reshape_target = op && code(*op) == int32_t(BuiltinOp::RESHAPE) && op->inputs.size() > 1 &&
                                op->inputs[1] == int32_t(i) && t.type == tflite::TensorType_INT32;
    NN_CHECK_CODE(reshape_target, ErrorCode::kUnsupported)
        << "constant " << what
        << (op ? std::string(" (read by ") + tflite_io::builtin_op_name(code(*op)) + ")" : "")
        << " depends on the batch size; export with a fixed batch size (-b)";
    std::vector<int32_t> target = merged(ints_of(data), ints_of(other), "RESHAPE target " + what);
    int unknown = 0;
    for (int32_t d : target) unknown += d < 0;
    NN_CHECK_CODE(unknown == 1, ErrorCode::kUnsupported)
        << "RESHAPE target " << what << " " << dims_text(target) << " would have " << unknown << " unknown dims";
    std::memcpy(data.data.data(), target.data(), target.size() * 4);
    if (auto* o = op->builtin_options.AsReshapeOptions()) o->new_shape = target;
  }
  NN_CHECK_CODE(any, ErrorCode::kUnsupported)
      << "no tensor follows the batch size (the network has no -1 batch dimension); --dynamic-batch has no effect";
}

}  // namespace nn::formats::tflite_export
