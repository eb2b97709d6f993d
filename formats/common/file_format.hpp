// File format detection: by extension first, then by the first bytes of the file.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace nn::formats {

enum class FileFormat {
  kUnknown,
  kNnp,       // zip archive (.nnp)
  kNntxt,     // NNablaProtoBuf text (.nntxt, .prototxt)
  kProtobuf,  // NNablaProtoBuf binary (.protobuf)
  kH5,        // HDF5 parameters (.h5)
  kNnb,       // nnabla-c-runtime binary (.nnb)
  kOnnx,      // ONNX model (.onnx)
  kDirectory,
};

const char* format_name(FileFormat format);

// Lower-cased text after the last '.' of the file name ("" if none), e.g. "nnp".
std::string file_extension(const std::string& path);

FileFormat format_from_extension(const std::string& path);
// head: the first bytes of the file (64 are enough); file_size: its total size.
FileFormat format_from_magic(std::string_view head, uint64_t file_size);
// Extension first; for an unknown extension the file's first bytes decide. Missing file: kUnknown.
FileFormat detect_format(const std::string& path);

}  // namespace nn::formats
