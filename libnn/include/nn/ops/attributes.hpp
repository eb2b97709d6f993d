// Function arguments as typed values (nnabla's *_param fields), keyed by argument name.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "nn/core/error.hpp"

namespace nn {

// Argument types of nnabla's function catalog (functions.yaml).
enum class AttrType : uint8_t {
  kInt,          // int64
  kFloat,        // float (stored as double)
  kDouble,       // double
  kBool,         // bool
  kString,       // string
  kShape,        // Shape message (list of int64)
  kInts,         // repeated int64
  kFloats,       // repeated float
  kCommunicator  // Communicator message (no content)
};
const char* attr_type_name(AttrType t);

using AttrValue = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>, std::vector<double>>;

std::string attr_to_string(const AttrValue& v);

// Ordered by name; lookups with typed getters that name the argument in errors.
class Attrs {
 public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<const std::string, AttrValue>> init) : values_(init) {}

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  void set(const std::string& name, AttrValue v) { values_[name] = std::move(v); }
  const AttrValue* find(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, AttrValue>& values() const { return values_; }
  bool empty() const { return values_.empty(); }

  // An argument the function's schema filled in (every argument with a default is present once a Function is
  // constructed): a missing one is an internal error. Kernels read arguments this way.
  int64_t get_int(const std::string& name) const;
  double get_float(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  std::string get_string(const std::string& name) const;
  std::vector<int64_t> get_ints(const std::string& name) const;
  std::vector<double> get_floats(const std::string& name) const;

  // With a fallback, for attributes that may be absent (a model's IR attributes, arguments whose default
  // depends on the inputs).
  int64_t get_int(const std::string& name, int64_t def) const;
  double get_float(const std::string& name, double def) const;
  bool get_bool(const std::string& name, bool def) const;
  std::string get_string(const std::string& name, const std::string& def) const;
  std::vector<int64_t> get_ints(const std::string& name, const std::vector<int64_t>& def) const;
  std::vector<double> get_floats(const std::string& name, const std::vector<double>& def) const;
  // A Shape argument where an empty value means the default (proto3 files omit an all-default Shape).
  std::vector<int64_t> get_shape_or(const std::string& name, const std::vector<int64_t>& def) const {
    auto v = get_ints(name, def);
    return v.empty() ? def : v;
  }

 private:
  std::map<std::string, AttrValue> values_;
};

}  // namespace nn
