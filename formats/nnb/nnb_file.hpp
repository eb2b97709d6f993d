// In-memory NNB (nnabla-c-runtime binary network): the decoded structs, reader and serializer.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace nn::formats::nnb {

enum class DataType : int { kFloat = 0, kInt16 = 1, kInt8 = 2, kSign = 3 };
const char* data_type_name(DataType t);  // FLOAT32, FIXED16, FIXED8, SIGN

struct NnbVariable {
  uint32_t id = 0;
  std::vector<int32_t> shape;
  DataType type = DataType::kFloat;
  int fp_pos = 0;
  int32_t data_index = -1;  // < 0: buffer -data_index-1; >= 0: block of `data` (read: as in the file)
  std::string data;         // raw bytes of the data block (Parameters, generators)
  bool has_data() const { return data_index >= 0; }
};

// One argument of a function record. code: "i" (int32 / string index), "f", "B", "iI" (int32 list).
struct NnbArgument {
  std::string code;
  int64_t i = 0;
  float f = 0.0f;
  std::vector<int32_t> list;
};

struct NnbFunction {
  int type = 0;  // function id
  int impl = 0;
  std::vector<uint32_t> inputs, outputs;
  std::vector<NnbArgument> args;
};

struct NnbNetwork {
  uint32_t version = 2;
  uint32_t api_level = 0;         // as written
  std::vector<uint32_t> buffers;  // sizes: elements (version 2) or bytes (version >= 3)
  std::vector<NnbVariable> variables;
  std::vector<NnbFunction> functions;
  std::vector<uint32_t> inputs, outputs;
  std::vector<std::string> warnings;  // reader notes, e.g. a garbage api_level
};

// Bytes per element of a type (SIGN: 0, packed 8 per byte).
int element_bytes(DataType t);
// Product of the dims: -1 when one is negative, INT64_MAX when the product overflows.
int64_t element_count(const std::vector<int32_t>& shape);

// Decodes and validates; errors name `source` and the place (header, block k, variable v, function f).
NnbNetwork read_nnb(const std::string& bytes, const std::string& source);
NnbNetwork read_nnb_file(const std::string& path);
// Blocks in upstream's allocation order (docs/nnb_format.md#block-order); data_index of data variables is
// rewritten.
std::string serialize_nnb(const NnbNetwork& network);

}  // namespace nn::formats::nnb
