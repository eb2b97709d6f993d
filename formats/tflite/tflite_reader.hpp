// TFLite file reader: the FlatBuffers verifier first, then every index, buffer and shape checked.
#pragma once
#include <memory>
#include <string>

#include "tflite_subset_generated.h"

namespace nn::formats::tflite_io {

// Reads and checks `path`: one clear nn::Error for a truncated or hostile file, buffers outside it,
// tensor/buffer size disagreements, and (kUnsupported) every unknown or custom operator, named at once.
std::unique_ptr<tflite::ModelT> read_tflite(const std::string& path);
std::unique_ptr<tflite::ModelT> parse_tflite(const std::string& bytes);
std::string read_file_bytes(const std::string& path);  // a regular file, at most 2 GiB

// Bytes per element of a TFLite tensor type nncli reads (0 for the types it does not).
size_t element_size(tflite::TensorType type);

}  // namespace nn::formats::tflite_io
