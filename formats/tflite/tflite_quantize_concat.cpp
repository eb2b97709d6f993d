// int8 CONCATENATION: TFLite wants its inputs and output on one scale and zero point, so they share one range.
#include <algorithm>

#include "formats/tflite/tflite_exporter.hpp"

namespace nn::formats::tflite_export {

bool keeps_int8_grid(int32_t builtin_code) {
  switch (tflite_io::BuiltinOp(builtin_code)) {
    case tflite_io::BuiltinOp::TRANSPOSE:
    case tflite_io::BuiltinOp::RESHAPE:
    case tflite_io::BuiltinOp::SQUEEZE:
    case tflite_io::BuiltinOp::MAX_POOL_2D:
    case tflite_io::BuiltinOp::AVERAGE_POOL_2D:
    case tflite_io::BuiltinOp::PAD:
    case tflite_io::BuiltinOp::PADV2:
    case tflite_io::BuiltinOp::STRIDED_SLICE:
    case tflite_io::BuiltinOp::SLICE: return true;
    default: return false;
  }
}

std::map<int, CalibrationRange> shared_concat_ranges(const tflite::ModelT& m, const RangeLookup& range_of) {
  const tflite::SubGraphT& g = *m.subgraphs.at(0);
  auto code = [&](const tflite::OperatorT& op) { return m.operator_codes.at(op.opcode_index)->builtin_code; };
  std::map<int, const tflite::OperatorT*> producer;
  for (const auto& op : g.operators)
    for (int32_t o : op->outputs) producer[o] = op.get();
  auto is_const = [&](int t) { return !m.buffers.at(g.tensors.at(size_t(t))->buffer)->data.empty(); };
  // The tensors whose range sets t's grid: t, and back through grid-keeping operators to the one that chose it.
  auto chain = [&](int t) {
    std::vector<int> c = {t};
    for (auto it = producer.find(t); it != producer.end() && keeps_int8_grid(code(*it->second));
         it = producer.find(t)) {
      t = it->second->inputs.at(0);
      c.push_back(t);
    }
    return c;
  };
  std::map<int, CalibrationRange> shared;
  auto current = [&](int t) -> const CalibrationRange* {
    auto it = shared.find(t);
    return it != shared.end() ? &it->second : range_of(g.tensors.at(size_t(t))->name);
  };
  // Concatenations feeding concatenations widen each other: repeat until nothing changes.
  for (size_t round = 0, changed = 1; changed && round <= g.operators.size(); ++round) {
    changed = 0;
    for (const auto& op : g.operators) {
      if (code(*op) != int32_t(tflite_io::BuiltinOp::CONCATENATION)) continue;
      std::vector<int> members;
      for (int32_t in : op->inputs)
        if (in >= 0 && !is_const(in))
          for (int t : chain(in)) members.push_back(t);
      members.push_back(op->outputs.at(0));
      CalibrationRange u{0.0f, 0.0f};
      bool first = true;
      for (int t : members)
        if (const CalibrationRange* r = current(t)) {
          u = first ? *r : CalibrationRange{std::min(u.min, r->min), std::max(u.max, r->max)};
          first = false;
        }
      if (first) continue;  // no ranges: the quantizer names the tensors
      for (int t : members) {
        const CalibrationRange* r = current(t);
        if (r && r->min == u.min && r->max == u.max) continue;
        shared[t] = u;
        changed = 1;
      }
    }
  }
  return shared;
}

}  // namespace nn::formats::tflite_export
