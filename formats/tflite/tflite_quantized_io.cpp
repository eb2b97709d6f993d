// Quantized graph inputs and outputs of a .tflite file, and TFLite's rounding between real values and integers.
#include "formats/tflite/tflite_quantized_io.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "formats/tflite/tflite_importer.hpp"
#include "formats/tflite/tflite_reader.hpp"
#include "nn/core/error.hpp"

namespace nn::formats {

std::string QuantizedIo::describe() const {
  std::ostringstream os;
  os << type << ", scale " << scale << ", zero point " << zero_point;
  return os.str();
}

double QuantizedIo::quantize(float real) const {
  const double steps = double(std::round(real / float(scale)));  // std::round: half away from zero
  return std::clamp(steps + double(zero_point), double(min), double(max));
}

namespace tflite_import {

std::optional<QuantizedIo> quantized_io(const tflite::TensorT& t) {
  if (!t.quantization || t.quantization->scale.empty()) return std::nullopt;
  QuantizedIo q;
  switch (t.type) {
    case tflite::TensorType_INT8: q.type = "int8", q.min = -128, q.max = 127; break;
    case tflite::TensorType_UINT8: q.type = "uint8", q.min = 0, q.max = 255; break;
    case tflite::TensorType_INT16: q.type = "int16", q.min = -32768, q.max = 32767; break;
    default: return std::nullopt;
  }
  q.scale = t.quantization->scale[0];
  q.zero_point = t.quantization->zero_point.empty() ? 0 : t.quantization->zero_point[0];
  NN_CHECK(q.scale > 0 && std::isfinite(q.scale)) << "tensor '" << t.name << "' has scale " << q.scale;
  return q;
}

}  // namespace tflite_import

TfliteQuantizedIo read_tflite_quantized_io(const std::string& path) {
  return with_context("'" + path + "'", [&] {
    const auto model = tflite_io::read_tflite(path);
    const auto& g = *model->subgraphs[0];
    TfliteQuantizedIo io;
    for (int32_t i : g.inputs)
      if (i >= 0 && model->buffers.at(g.tensors[size_t(i)]->buffer)->data.empty())  // as the importer declares
        io.inputs.push_back(tflite_import::quantized_io(*g.tensors[size_t(i)]));
    for (int32_t o : g.outputs)
      io.outputs.push_back(o >= 0 ? tflite_import::quantized_io(*g.tensors[size_t(o)]) : std::nullopt);
    return io;
  });
}

}  // namespace nn::formats
