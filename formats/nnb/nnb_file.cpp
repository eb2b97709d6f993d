// NNB reader (bounds-checked decoding of header, index table and blocks) and serializer.
#include "formats/nnb/nnb_file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "formats/common/atomic_file.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::nnb {

namespace {

constexpr size_t kHeaderBytes = 56;
constexpr uint32_t kMinVersion = 2, kMaxVersion = 3;
constexpr uint32_t kGarbageApiLevel = 5000;         // the runtime treats anything above as level 1
constexpr int64_t kMaxElements = int64_t(1) << 28;  // per variable (1 GiB of float32)

uint32_t load_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// The data area and its blocks, every access checked against the file.
class Blocks {
 public:
  Blocks(const std::string& bytes, size_t data_begin, uint32_t data_size, std::vector<uint32_t> offsets,
         std::string source)
      : bytes_(bytes), begin_(data_begin), size_(data_size), offsets_(std::move(offsets)), source_(source) {
    sorted_ = offsets_;
    std::sort(sorted_.begin(), sorted_.end());
  }
  size_t count() const { return offsets_.size(); }
  // Bytes from the block's start to the next block's start (or the end of the data area).
  size_t length(int32_t block, const std::string& what) const {
    uint32_t off = offset(block, what);
    auto next = std::upper_bound(sorted_.begin(), sorted_.end(), off);
    return (next == sorted_.end() ? size_ : *next) - off;
  }
  const char* at(int32_t block, size_t byte, size_t n, const std::string& what) const {
    uint32_t off = offset(block, what);
    NN_CHECK(uint64_t(off) + byte + n <= size_)
        << source_ << ": " << what << ": block " << block << " (offset " << off << ") needs " << byte + n
        << " bytes but the data area ends at " << size_;
    return bytes_.data() + begin_ + off + byte;
  }
  uint32_t u32(int32_t block, size_t byte, const std::string& what) const {
    return load_u32(at(block, byte, 4, what));
  }
  std::vector<uint32_t> list(uint32_t size, int32_t block, const std::string& what) const {
    NN_CHECK(size <= size_ / 4) << source_ << ": " << what << ": list of " << size
                                << " entries does not fit the data area (" << size_ << " bytes)";
    std::vector<uint32_t> v(size);
    if (size == 0) return v;
    const char* p = at(block, 0, size_t(size) * 4, what);
    for (uint32_t k = 0; k < size; ++k) v[k] = load_u32(p + 4 * k);
    return v;
  }

 private:
  uint32_t offset(int32_t block, const std::string& what) const {
    NN_CHECK(block >= 0 && size_t(block) < offsets_.size())
        << source_ << ": " << what << ": block index " << block << " is out of range (the index has "
        << offsets_.size() << " blocks)";
    return offsets_[size_t(block)];
  }
  const std::string& bytes_;
  size_t begin_;
  uint32_t size_;
  std::vector<uint32_t> offsets_, sorted_;
  std::string source_;
};

size_t arg_bytes(const std::string& code) { return code == "iI" ? 8 : code == "B" ? 1 : 4; }
size_t arg_align(const std::string& code) { return code == "B" ? 1 : 4; }

void decode_arguments(const Blocks& blocks, int32_t record, NnbFunction& f, const std::string& what) {
  const FunctionIdEntry* entry = function_by_id(f.type);
  if (entry == nullptr) return;  // unknown id: arguments cannot be decoded (the dump says so)
  const size_t length = blocks.length(record, what);
  size_t pos = 20;
  for (const std::string& code : split_argcode(entry->argcode)) {
    if (code == "fF") break;  // repeated floats have no NNB encoding: the writer refuses them
    pos = (pos + arg_align(code) - 1) / arg_align(code) * arg_align(code);
    if (pos + arg_bytes(code) > length) break;  // older record layout: fewer arguments
    NnbArgument a;
    a.code = code;
    const char* p = blocks.at(record, pos, arg_bytes(code), what);
    if (code == "B") {
      a.i = uint8_t(*p);
    } else if (code == "f") {
      std::memcpy(&a.f, p, 4);
    } else if (code == "iI") {
      uint32_t n = load_u32(p);
      for (uint32_t v : blocks.list(n, int32_t(load_u32(p + 4)), what + " argument list"))
        a.list.push_back(int32_t(v));
    } else {
      a.i = int32_t(load_u32(p));
    }
    f.args.push_back(std::move(a));
    pos += arg_bytes(code);
  }
}

}  // namespace

const char* data_type_name(DataType t) {
  switch (t) {
    case DataType::kFloat: return "FLOAT32";
    case DataType::kInt16: return "FIXED16";
    case DataType::kInt8: return "FIXED8";
    case DataType::kSign: return "SIGN";
  }
  return "?";
}

int element_bytes(DataType t) {
  switch (t) {
    case DataType::kFloat: return 4;
    case DataType::kInt16: return 2;
    case DataType::kInt8: return 1;
    case DataType::kSign: return 0;
  }
  return 4;
}

int64_t element_count(const std::vector<int32_t>& shape) {
  int64_t n = 1;
  for (int32_t d : shape) {
    if (d < 0) return -1;
    if (__builtin_mul_overflow(n, int64_t(d), &n)) return INT64_MAX;
  }
  return n;
}

NnbNetwork read_nnb(const std::string& bytes, const std::string& source) {
  NN_CHECK(bytes.size() >= kHeaderBytes) << source << ": NNB header truncated (" << bytes.size()
                                         << " bytes, the header needs " << kHeaderBytes << ")";
  auto h = [&](size_t k) { return load_u32(bytes.data() + 4 * k); };
  NnbNetwork n;
  n.version = h(0);
  NN_CHECK(n.version >= kMinVersion && n.version <= kMaxVersion)
      << source << ": NNB version " << n.version << " is not supported (nnabla-c-runtime reads versions "
      << kMinVersion << " to " << kMaxVersion << ")";
  n.api_level = h(1);
  if (n.api_level > kGarbageApiLevel) {
    n.warnings.push_back("api_level " + std::to_string(n.api_level) +
                         " is not a valid level (old exporter); treated as 1 as nnabla-c-runtime does");
  } else {
    NN_CHECK(n.api_level <= uint32_t(newest_api_level()))
        << source << ": NNB api_level " << n.api_level << " is newer than the newest level nncli knows ("
        << newest_api_level() << ")";
  }
  const uint32_t num_blocks = h(12), data_size = h(13);
  NN_CHECK(uint64_t(num_blocks) * 4 <= bytes.size() - kHeaderBytes)
      << source << ": NNB index table truncated: " << num_blocks << " entries need " << uint64_t(num_blocks) * 4
      << " bytes, " << bytes.size() - kHeaderBytes << " follow the header";
  const size_t data_begin = kHeaderBytes + size_t(num_blocks) * 4;
  NN_CHECK(uint64_t(data_size) <= bytes.size() - data_begin)
      << source << ": NNB data area truncated: the header declares " << data_size << " bytes, "
      << bytes.size() - data_begin << " are present";
  std::vector<uint32_t> offsets(num_blocks);
  for (uint32_t k = 0; k < num_blocks; ++k) {
    offsets[k] = load_u32(bytes.data() + kHeaderBytes + 4 * k);
    NN_CHECK(offsets[k] <= data_size) << source << ": NNB index entry " << k << ": offset " << offsets[k]
                                      << " is beyond the data area (" << data_size << " bytes)";
  }
  Blocks blocks(bytes, data_begin, data_size, std::move(offsets), source);

  n.buffers = blocks.list(h(2), int32_t(h(3)), "buffer list");
  n.inputs = blocks.list(h(8), int32_t(h(9)), "input list");
  n.outputs = blocks.list(h(10), int32_t(h(11)), "output list");
  const std::vector<uint32_t> variable_blocks = blocks.list(h(4), int32_t(h(5)), "variable list");
  for (size_t v = 0; v < variable_blocks.size(); ++v) {
    const std::string what = "variable " + std::to_string(v);
    const int32_t rec = int32_t(variable_blocks[v]);
    NnbVariable var;
    var.id = blocks.u32(rec, 0, what);
    for (uint32_t d : blocks.list(blocks.u32(rec, 4, what), int32_t(blocks.u32(rec, 8, what)), what + " shape"))
      var.shape.push_back(int32_t(d));
    const uint8_t bits = uint8_t(*blocks.at(rec, 12, 1, what));
    NN_CHECK((bits & 0xF) <= 3) << source << ": " << what << ": data type " << (bits & 0xF)
                                << " is not FLOAT/INT16/INT8/SIGN";
    var.type = DataType(bits & 0xF);
    var.fp_pos = bits >> 4;
    var.data_index = int32_t(blocks.u32(rec, 16, what));
    const int64_t count = element_count(var.shape);
    NN_CHECK(count >= 0) << source << ": " << what << ": negative dimension in its shape";
    NN_CHECK(count <= kMaxElements) << source << ": " << what << ": its shape has " << count
                                    << " elements, more than nncli accepts (" << kMaxElements << ")";
    if (var.data_index >= 0) {
      const uint64_t need = var.type == DataType::kSign ? uint64_t(count + 7) / 8
                                                        : uint64_t(count) * uint64_t(element_bytes(var.type));
      // Shorter blocks are legal: binary convolution weights keep only their first element.
      const uint64_t have = std::min<uint64_t>(need, blocks.length(var.data_index, what + " data"));
      var.data.assign(blocks.at(var.data_index, 0, size_t(have), what + " data"), size_t(have));
    } else {
      NN_CHECK(size_t(-(int64_t(var.data_index) + 1)) < n.buffers.size())
          << source << ": " << what << ": buffer " << -(int64_t(var.data_index) + 1)
          << " is out of range (the network has " << n.buffers.size() << " buffers)";
    }
    n.variables.push_back(std::move(var));
  }
  auto check_ids = [&](const std::vector<uint32_t>& ids, const std::string& what) {
    for (uint32_t id : ids)
      NN_CHECK(id < n.variables.size()) << source << ": " << what << ": variable id " << id << " is out of range ("
                                        << n.variables.size() << " variables)";
  };
  check_ids(n.inputs, "input list");
  check_ids(n.outputs, "output list");
  const std::vector<uint32_t> function_blocks = blocks.list(h(6), int32_t(h(7)), "function list");
  for (size_t k = 0; k < function_blocks.size(); ++k) {
    const std::string what = "function " + std::to_string(k);
    const int32_t rec = int32_t(function_blocks[k]);
    NnbFunction f;
    const uint32_t head = blocks.u32(rec, 0, what);
    f.type = int(head & 0xFFFF);
    f.impl = int(head >> 16);
    f.inputs = blocks.list(blocks.u32(rec, 4, what), int32_t(blocks.u32(rec, 8, what)), what + " inputs");
    f.outputs = blocks.list(blocks.u32(rec, 12, what), int32_t(blocks.u32(rec, 16, what)), what + " outputs");
    check_ids(f.inputs, what + " inputs");
    check_ids(f.outputs, what + " outputs");
    decode_arguments(blocks, rec, f, what);
    n.functions.push_back(std::move(f));
  }
  return n;
}

NnbNetwork read_nnb_file(const std::string& path) { return read_nnb(read_file(path), "'" + path + "'"); }

namespace {

class BlockWriter {
 public:
  int32_t add(const std::string& bytes) {
    offsets_.push_back(uint32_t(data_.size()));
    data_ += bytes;
    data_.resize((data_.size() + 3) / 4 * 4, '\0');
    return int32_t(offsets_.size() - 1);
  }
  int32_t add_u32s(const std::vector<uint32_t>& values) {
    std::string b(values.size() * 4, '\0');
    if (!values.empty()) std::memcpy(b.data(), values.data(), b.size());
    return add(b);
  }
  std::string finish(std::vector<uint32_t> header) const {
    header.push_back(uint32_t(offsets_.size()));
    header.push_back(uint32_t(data_.size()));
    std::string out(header.size() * 4 + offsets_.size() * 4, '\0');
    std::memcpy(out.data(), header.data(), header.size() * 4);
    if (!offsets_.empty()) std::memcpy(out.data() + header.size() * 4, offsets_.data(), offsets_.size() * 4);
    return out + data_;
  }

 private:
  std::vector<uint32_t> offsets_;
  std::string data_;
};

void put_u32(std::string& b, size_t pos, uint32_t v) {
  if (b.size() < pos + 4) b.resize(pos + 4, '\0');
  std::memcpy(b.data() + pos, &v, 4);
}

}  // namespace

std::string serialize_nnb(const NnbNetwork& n) {
  BlockWriter w;
  const int32_t inputs = w.add_u32s(n.inputs);
  const int32_t outputs = w.add_u32s(n.outputs);
  const int32_t buffers = w.add_u32s(n.buffers);
  std::vector<uint32_t> variable_records;
  for (const auto& v : n.variables) {
    std::vector<uint32_t> dims(v.shape.begin(), v.shape.end());
    const int32_t shape = w.add_u32s(dims);
    const int32_t data = v.has_data() ? w.add(v.data) : v.data_index;
    std::string rec;
    put_u32(rec, 0, v.id);
    put_u32(rec, 4, uint32_t(v.shape.size()));
    put_u32(rec, 8, uint32_t(shape));
    put_u32(rec, 12, uint32_t(((v.fp_pos & 0xF) << 4) + (int(v.type) & 0xF)));
    put_u32(rec, 16, uint32_t(data));
    variable_records.push_back(uint32_t(w.add(rec)));
  }
  const int32_t variables = w.add_u32s(variable_records);
  std::vector<uint32_t> function_records;
  for (const auto& f : n.functions) {
    const int32_t in = w.add_u32s(f.inputs);
    const int32_t out = w.add_u32s(f.outputs);
    std::vector<int32_t> list_blocks;
    for (const auto& a : f.args)
      if (a.code == "iI") list_blocks.push_back(w.add_u32s(std::vector<uint32_t>(a.list.begin(), a.list.end())));
    std::string rec;
    put_u32(rec, 0, uint32_t(f.type & 0xFFFF) | (uint32_t(f.impl & 0xFFFF) << 16));
    put_u32(rec, 4, uint32_t(f.inputs.size()));
    put_u32(rec, 8, uint32_t(in));
    put_u32(rec, 12, uint32_t(f.outputs.size()));
    put_u32(rec, 16, uint32_t(out));
    size_t pos = 20, list = 0;
    for (const auto& a : f.args) {
      pos = (pos + arg_align(a.code) - 1) / arg_align(a.code) * arg_align(a.code);
      if (a.code == "B") {
        rec.resize(pos + 1, '\0');
        rec[pos] = char(a.i ? 1 : 0);
      } else if (a.code == "f") {
        uint32_t bits;
        std::memcpy(&bits, &a.f, 4);
        put_u32(rec, pos, bits);
      } else if (a.code == "iI") {
        put_u32(rec, pos, uint32_t(a.list.size()));
        put_u32(rec, pos + 4, uint32_t(list_blocks[list++]));
      } else {
        put_u32(rec, pos, uint32_t(int32_t(a.i)));
      }
      pos += arg_bytes(a.code);
    }
    function_records.push_back(uint32_t(w.add(rec)));
  }
  const int32_t functions = w.add_u32s(function_records);
  return w.finish({n.version, n.api_level, uint32_t(n.buffers.size()), uint32_t(buffers),
                   uint32_t(n.variables.size()), uint32_t(variables), uint32_t(n.functions.size()),
                   uint32_t(functions), uint32_t(n.inputs.size()), uint32_t(inputs), uint32_t(n.outputs.size()),
                   uint32_t(outputs)});
}

}  // namespace nn::formats::nnb
