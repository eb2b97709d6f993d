// How a .tflite file's graph inputs and outputs hold numbers: a quantized tensor's integers q stand for the real
// values scale * (q - zero_point); `nncli infer` takes real values or the integers and gives either back.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nn::formats {

struct QuantizedIo {
  std::string type;          // "int8", "uint8" or "int16"
  int64_t min = 0, max = 0;  // the range of the type
  double scale = 1.0;
  int64_t zero_point = 0;

  // "int8, scale 0.0244803, zero point -128"
  std::string describe() const;
  // TFLite's QUANTIZE of a real value: real / scale in float32, rounded half away from zero, plus the zero
  // point, saturated to the type's range. NaN has no integer: the caller refuses it.
  double quantize(float real) const;
  float dequantize(double integer) const { return float((integer - double(zero_point)) * scale); }
};

// The quantization of each graph input (in the order of the imported executor's data variables: the
// non-constant subgraph inputs) and output; nullopt where one is not quantized.
struct TfliteQuantizedIo {
  std::vector<std::optional<QuantizedIo>> inputs, outputs;
};
TfliteQuantizedIo read_tflite_quantized_io(const std::string& path);

}  // namespace nn::formats
