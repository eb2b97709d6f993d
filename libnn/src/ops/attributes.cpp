// Typed access to function arguments.
#include "nn/ops/attributes.hpp"

#include <sstream>

namespace nn {

const char* attr_type_name(AttrType t) {
  switch (t) {
    case AttrType::kInt: return "int64";
    case AttrType::kFloat: return "float";
    case AttrType::kDouble: return "double";
    case AttrType::kBool: return "bool";
    case AttrType::kString: return "string";
    case AttrType::kShape: return "Shape";
    case AttrType::kInts: return "repeated int64";
    case AttrType::kFloats: return "repeated float";
    case AttrType::kCommunicator: return "Communicator";
  }
  return "?";
}

std::string attr_to_string(const AttrValue& v) {
  std::ostringstream os;
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          os << (x ? "true" : "false");
        } else if constexpr (std::is_same_v<T, std::string>) {
          os << '"' << x << '"';
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<double>>) {
          os << '[';
          for (size_t i = 0; i < x.size(); ++i) os << (i ? ", " : "") << x[i];
          os << ']';
        } else {
          os << x;
        }
      },
      v);
  return os.str();
}

namespace {
[[noreturn]] void wrong_type(const std::string& name, const char* want, const AttrValue& v) {
  NN_FAIL(ErrorCode::kInvalid) << "argument '" << name << "' should be " << want << ", got " << attr_to_string(v);
}
const AttrValue& present(const Attrs& attrs, const std::string& name) {
  const AttrValue* v = attrs.find(name);
  NN_CHECK_CODE(v != nullptr, ErrorCode::kInternal)
      << "internal: argument '" << name << "' is missing (the function's schema gives it no default)";
  return *v;
}
}  // namespace

int64_t Attrs::get_int(const std::string& name) const {
  present(*this, name);
  return get_int(name, 0);
}
double Attrs::get_float(const std::string& name) const {
  present(*this, name);
  return get_float(name, 0.0);
}
bool Attrs::get_bool(const std::string& name) const {
  present(*this, name);
  return get_bool(name, false);
}
std::string Attrs::get_string(const std::string& name) const {
  present(*this, name);
  return get_string(name, "");
}
std::vector<int64_t> Attrs::get_ints(const std::string& name) const {
  present(*this, name);
  return get_ints(name, {});
}
std::vector<double> Attrs::get_floats(const std::string& name) const {
  present(*this, name);
  return get_floats(name, {});
}

int64_t Attrs::get_int(const std::string& name, int64_t def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto p = std::get_if<int64_t>(v)) return *p;
  if (auto p = std::get_if<bool>(v)) return *p;
  if (auto p = std::get_if<double>(v)) return int64_t(*p);
  wrong_type(name, "an integer", *v);
}

double Attrs::get_float(const std::string& name, double def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto p = std::get_if<double>(v)) return *p;
  if (auto p = std::get_if<int64_t>(v)) return double(*p);
  wrong_type(name, "a number", *v);
}

bool Attrs::get_bool(const std::string& name, bool def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto p = std::get_if<bool>(v)) return *p;
  if (auto p = std::get_if<int64_t>(v)) return *p != 0;
  wrong_type(name, "a bool", *v);
}

std::string Attrs::get_string(const std::string& name, const std::string& def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto p = std::get_if<std::string>(v)) return *p;
  wrong_type(name, "a string", *v);
}

std::vector<int64_t> Attrs::get_ints(const std::string& name, const std::vector<int64_t>& def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto p = std::get_if<std::vector<int64_t>>(v)) return *p;
  if (auto p = std::get_if<int64_t>(v)) return {*p};
  if (auto p = std::get_if<std::vector<double>>(v)) return std::vector<int64_t>(p->begin(), p->end());
  wrong_type(name, "a list of integers", *v);
}

std::vector<double> Attrs::get_floats(const std::string& name, const std::vector<double>& def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto p = std::get_if<std::vector<double>>(v)) return *p;
  if (auto p = std::get_if<std::vector<int64_t>>(v)) return std::vector<double>(p->begin(), p->end());
  if (auto p = std::get_if<double>(v)) return {*p};
  wrong_type(name, "a list of numbers", *v);
}

}  // namespace nn
