// Full-integer int8 post-training quantization of an exported float graph: per-channel symmetric weights,
// per-tensor asymmetric activations from calibration ranges, int32 biases (scale = input x weight scale).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <sstream>

#include "formats/tflite/tflite_exporter.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn::formats::tflite_export {
namespace {

using tflite_io::BuiltinOp;
constexpr int kPerTensor = -1, kAsymmetric = -2;

struct QParams {
  float scale = 1.0f;
  int64_t zero_point = 0;
};

// Asymmetric int8 covering [min, max] and 0.
QParams asymmetric(float lo, float hi) {
  lo = std::min(lo, 0.0f), hi = std::max(hi, 0.0f);
  QParams q;
  q.scale = hi > lo ? (hi - lo) / 255.0f : 1.0f;
  q.zero_point = std::clamp<int64_t>(int64_t(std::lround(-128.0 - lo / q.scale)), -128, 127);
  return q;
}

void set_q(tflite::TensorT& t, const std::vector<float>& scales, const std::vector<int64_t>& zps, int dim = 0) {
  t.quantization = std::make_unique<tflite::QuantizationParametersT>();
  t.quantization->scale = scales;
  t.quantization->zero_point = zps;
  t.quantization->quantized_dimension = dim;
}

std::vector<float> floats_of(const tflite::BufferT& b) {
  std::vector<float> v(b.data.size() / 4);
  if (!v.empty()) std::memcpy(v.data(), b.data.data(), v.size() * 4);
  return v;
}

class Quantizer {
 public:
  Quantizer(tflite::ModelT& m, const std::map<std::string, CalibrationRange>& ranges)
      : m_(m), g_(*m.subgraphs[0]), ranges_(ranges) {}

  void run(bool float_io) {
    std::ostringstream problems;
    int n = 0;
    shared_ = shared_concat_ranges(m_, [this](const std::string& name) { return range_of(name); });
    for (int32_t i : g_.inputs) activation(i, nullptr);
    for (auto& op : g_.operators) {
      try {
        quantize_op(*op);
      } catch (const Error& e) {
        problems << (n++ ? "; " : "") << e.what();
      }
    }
    if (!requantize_.empty()) {  // the QUANTIZE (int8 -> int8) operators go right before their readers
      std::vector<std::unique_ptr<tflite::OperatorT>> ops;
      for (auto& op : g_.operators) {
        auto it = requantize_.find(op.get());
        if (it != requantize_.end())
          for (auto& r : it->second) ops.push_back(std::move(r));
        ops.push_back(std::move(op));
      }
      g_.operators = std::move(ops);
    }
    NN_CHECK_CODE(n == 0, ErrorCode::kUnsupported)
        << n << " operator(s) cannot be quantized to int8: " << problems.str();
    for (auto& t : g_.tensors)
      if (t->type == tflite::TensorType_FLOAT32 && m_.buffers[t->buffer]->data.empty())
        NN_FAIL(ErrorCode::kInternal) << "tensor '" << t->name << "' was left in float";
    if (float_io) add_edges();
  }

 private:
  int32_t code(const tflite::OperatorT& op) const { return m_.operator_codes[op.opcode_index]->builtin_code; }
  bool is_const(int t) const { return !m_.buffers[g_.tensors[size_t(t)]->buffer]->data.empty(); }

  // The range of an activation tensor: its variable's, or (for helper tensors "x/padded", "y/fc") the
  // variable it was made from.
  const CalibrationRange* range_of(std::string name) const {
    for (;;) {
      auto it = ranges_.find(name);
      if (it != ranges_.end()) return &it->second;
      size_t slash = name.rfind('/');
      if (slash == std::string::npos) return nullptr;
      name = name.substr(0, slash);
    }
  }

  void activation(int t, const QParams* fixed) {
    tflite::TensorT& tt = *g_.tensors[size_t(t)];
    if (tt.type == tflite::TensorType_INT8) return;
    QParams q;
    if (fixed) {
      q = *fixed;
    } else {
      auto shared = shared_.find(t);
      const CalibrationRange* r = shared != shared_.end() ? &shared->second : range_of(tt.name);
      NN_CHECK(r != nullptr) << "tensor '" << tt.name << "' has no calibration range";
      q = asymmetric(r->min, r->max);
      NN_LOG_VERBOSE << "TFLite int8: '" << tt.name << "' range [" << r->min << ", " << r->max << "] scale "
                     << q.scale << " zero point " << q.zero_point;
    }
    tt.type = tflite::TensorType_INT8;
    set_q(tt, {q.scale}, {q.zero_point});
  }

  QParams q_of(int t) const {
    const auto& q = *g_.tensors[size_t(t)]->quantization;
    return {q.scale.at(0), q.zero_point.at(0)};
  }

  // A float constant as int8: symmetric per channel along `dim`; kPerTensor: symmetric per tensor;
  // kAsymmetric: per tensor with a zero point.
  void weights(int t, int dim) {
    tflite::TensorT& tt = *g_.tensors[size_t(t)];
    if (tt.type != tflite::TensorType_FLOAT32) return;
    tflite::BufferT& b = *m_.buffers[tt.buffer];
    std::vector<float> v = floats_of(b);
    std::vector<int8_t> q(v.size());
    if (dim == kAsymmetric) {
      auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      QParams p = v.empty() ? QParams{} : asymmetric(*lo, *hi);
      for (size_t i = 0; i < v.size(); ++i)
        q[i] = int8_t(std::clamp<long>(std::lround(v[i] / p.scale) + p.zero_point, -128, 127));
      set_q(tt, {p.scale}, {p.zero_point});
    } else {
      const bool per_tensor = dim == kPerTensor;
      if (per_tensor) dim = 0;
      const size_t channels = per_tensor ? 1 : size_t(tt.shape.at(size_t(dim)));
      size_t inner = 1;
      for (size_t d = size_t(dim) + 1; d < tt.shape.size(); ++d) inner *= size_t(tt.shape[d]);
      std::vector<float> amax(channels, 0.0f);
      for (size_t i = 0; i < v.size(); ++i)
        amax[(i / inner) % channels] = std::max(amax[(i / inner) % channels], std::fabs(v[i]));
      std::vector<float> scales(channels);
      for (size_t c = 0; c < channels; ++c) scales[c] = amax[c] > 0 ? amax[c] / 127.0f : 1.0f;
      for (size_t i = 0; i < v.size(); ++i)
        q[i] = int8_t(std::clamp<long>(std::lround(v[i] / scales[(i / inner) % channels]), -127, 127));
      set_q(tt, scales, std::vector<int64_t>(channels, 0), dim);
    }
    tt.type = tflite::TensorType_INT8;
    b.data.assign(reinterpret_cast<uint8_t*>(q.data()), reinterpret_cast<uint8_t*>(q.data()) + q.size());
  }

  void bias(int t, float input_scale, const std::vector<float>& weight_scales) {
    tflite::TensorT& tt = *g_.tensors[size_t(t)];
    tflite::BufferT& b = *m_.buffers[tt.buffer];
    std::vector<float> v = floats_of(b);
    std::vector<int32_t> q(v.size());
    std::vector<float> scales(v.size());
    for (size_t c = 0; c < v.size(); ++c) {
      scales[c] = input_scale * weight_scales[weight_scales.size() == 1 ? 0 : c];
      q[c] = int32_t(std::clamp<double>(std::round(double(v[c]) / scales[c]), -2147483647.0, 2147483647.0));
    }
    tt.type = tflite::TensorType_INT32;
    if (weight_scales.size() == 1) scales.resize(std::min<size_t>(scales.size(), 1));  // one scale per tensor
    set_q(tt, scales, std::vector<int64_t>(scales.size(), 0));
    b.data.assign(reinterpret_cast<uint8_t*>(q.data()), reinterpret_cast<uint8_t*>(q.data()) + q.size() * 4);
  }

  void quantize_op(tflite::OperatorT& op) {
    const int32_t c = code(op);
    const std::string name = tflite_io::builtin_op_name(c);
    const int out = op.outputs.at(0);
    const std::string what = "operator " + name + " -> '" + g_.tensors[size_t(out)]->name + "'";
    with_context(what, [&] {
      if (keeps_int8_grid(c) && BuiltinOp(c) != BuiltinOp::PADV2) {  // the same grid in and out
        QParams q = q_of(op.inputs.at(0));
        activation(out, &q);
        return;
      }
      switch (BuiltinOp(c)) {
        case BuiltinOp::CONV_2D:
        case BuiltinOp::DEPTHWISE_CONV_2D:
        case BuiltinOp::FULLY_CONNECTED: {  // per channel (Arm NN 20.08 takes only per-tensor FC weights)
          const int dim = c == int32_t(BuiltinOp::DEPTHWISE_CONV_2D) ? 3
                          : c == int32_t(BuiltinOp::CONV_2D)         ? 0
                                                                     : kPerTensor;
          weights(op.inputs.at(1), dim);
          activation(out, nullptr);
          if (op.inputs.size() > 2 && op.inputs[2] >= 0)
            bias(op.inputs[2], q_of(op.inputs[0]).scale, g_.tensors[size_t(op.inputs[1])]->quantization->scale);
          return;
        }
        case BuiltinOp::TRANSPOSE_CONV:  // inputs: output shape (int32), OHWI weights, data
          weights(op.inputs.at(1), 0);
          activation(out, nullptr);
          return;
        case BuiltinOp::CONCATENATION: concatenation(op); return;
        case BuiltinOp::PADV2: {
          QParams q = q_of(op.inputs.at(0));
          activation(out, &q);
          tflite::TensorT& cv = *g_.tensors[size_t(op.inputs.at(2))];
          std::vector<float> v = floats_of(*m_.buffers[cv.buffer]);
          int8_t qv = int8_t(std::clamp<long>(std::lround(v.at(0) / q.scale) + q.zero_point, -128, 127));
          cv.type = tflite::TensorType_INT8;
          set_q(cv, {q.scale}, {q.zero_point});
          m_.buffers[cv.buffer]->data.assign(1, uint8_t(qv));
          return;
        }
        case BuiltinOp::SOFTMAX:
        case BuiltinOp::LOGISTIC: {
          QParams q{1.0f / 256.0f, -128};
          activation(out, &q);
          return;
        }
        case BuiltinOp::TANH: {
          QParams q{1.0f / 128.0f, 0};
          activation(out, &q);
          return;
        }
        case BuiltinOp::ADD:
        case BuiltinOp::SUB:
        case BuiltinOp::MUL:
        case BuiltinOp::MAXIMUM:
        case BuiltinOp::MINIMUM:
        case BuiltinOp::PRELU:
        case BuiltinOp::RELU:
        case BuiltinOp::RELU6:
        case BuiltinOp::LEAKY_RELU:
        case BuiltinOp::MEAN:
        case BuiltinOp::SUM:
          for (int in : op.inputs)
            if (in >= 0 && is_const(in) && g_.tensors[size_t(in)]->type == tflite::TensorType_FLOAT32)
              weights(in, kAsymmetric);
          activation(out, nullptr);
          return;
        default: NN_FAIL(ErrorCode::kUnsupported) << "no int8 rule";
      }
    });
  }

  // CONCATENATION: inputs on the output's grid (their ranges were unified); a constant is stored on it, an
  // input whose grid was fixed elsewhere (SOFTMAX, a second concatenation) goes through a requantizing QUANTIZE.
  void concatenation(tflite::OperatorT& op) {
    const int out = op.outputs.at(0);
    activation(out, nullptr);
    const QParams q = q_of(out);
    for (int32_t& in : op.inputs) {
      tflite::TensorT& t = *g_.tensors[size_t(in)];
      if (is_const(in) && t.type == tflite::TensorType_FLOAT32) {
        tflite::BufferT& b = *m_.buffers[t.buffer];
        std::vector<float> v = floats_of(b);
        std::vector<int8_t> qv(v.size());
        for (size_t i = 0; i < v.size(); ++i)
          qv[i] = int8_t(std::clamp<long>(std::lround(v[i] / q.scale) + q.zero_point, -128, 127));
        t.type = tflite::TensorType_INT8;
        set_q(t, {q.scale}, {q.zero_point});
        b.data.assign(reinterpret_cast<uint8_t*>(qv.data()), reinterpret_cast<uint8_t*>(qv.data()) + qv.size());
        continue;
      }
      const QParams qi = q_of(in);
      if (qi.scale == q.scale && qi.zero_point == q.zero_point) continue;
      auto r = std::make_unique<tflite::TensorT>();
      r->name = t.name + "/requantized";
      r->shape = t.shape;
      r->type = tflite::TensorType_INT8;
      set_q(*r, {q.scale}, {q.zero_point});
      g_.tensors.push_back(std::move(r));
      auto rq = std::make_unique<tflite::OperatorT>();
      rq->opcode_index = opcode(BuiltinOp::QUANTIZE);
      rq->inputs = {in};
      rq->outputs = {int32_t(g_.tensors.size() - 1)};
      in = rq->outputs[0];
      requantize_[&op].push_back(std::move(rq));
    }
  }

  uint32_t opcode(BuiltinOp op) {
    for (size_t i = 0; i < m_.operator_codes.size(); ++i)
      if (m_.operator_codes[i]->builtin_code == int32_t(op)) return uint32_t(i);
    auto oc = std::make_unique<tflite::OperatorCodeT>();
    oc->builtin_code = int32_t(op);
    oc->deprecated_builtin_code = int8_t(op);
    m_.operator_codes.push_back(std::move(oc));
    return uint32_t(m_.operator_codes.size() - 1);
  }

  // Float graph inputs and outputs around the int8 body.
  void add_edges() {
    auto float_twin = [&](int t, const std::string& suffix) {
      auto f = std::make_unique<tflite::TensorT>();
      tflite::TensorT& q = *g_.tensors[size_t(t)];
      f->name = q.name;
      q.name += suffix;
      f->shape = q.shape;
      f->type = tflite::TensorType_FLOAT32;
      g_.tensors.push_back(std::move(f));
      return int(g_.tensors.size() - 1);
    };
    std::vector<std::unique_ptr<tflite::OperatorT>> front;
    for (int32_t& i : g_.inputs) {
      int f = float_twin(i, "/int8");
      auto op = std::make_unique<tflite::OperatorT>();
      op->opcode_index = opcode(BuiltinOp::QUANTIZE);
      op->inputs = {f};
      op->outputs = {i};
      front.push_back(std::move(op));
      i = f;
    }
    for (int32_t& o : g_.outputs) {
      int f = float_twin(o, "/int8");
      auto op = std::make_unique<tflite::OperatorT>();
      op->opcode_index = opcode(BuiltinOp::DEQUANTIZE);
      op->inputs = {o};
      op->outputs = {f};
      g_.operators.push_back(std::move(op));
      o = f;
    }
    for (auto& op : g_.operators) front.push_back(std::move(op));
    g_.operators = std::move(front);
  }

  tflite::ModelT& m_;
  tflite::SubGraphT& g_;
  const std::map<std::string, CalibrationRange>& ranges_;
  std::map<int, CalibrationRange> shared_;  // CONCATENATION's ranges by tensor index
  std::map<const tflite::OperatorT*, std::vector<std::unique_ptr<tflite::OperatorT>>> requantize_;
};

}  // namespace

void quantize_int8(tflite::ModelT& model, const std::map<std::string, CalibrationRange>& ranges, bool float_io) {
  Quantizer(model, ranges).run(float_io);
}

}  // namespace nn::formats::tflite_export
