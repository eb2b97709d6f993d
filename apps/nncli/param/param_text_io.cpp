// Parameter text files of decode_param/encode_param in upstream's layout
// (docs/command_line.md#parameter-text-files).
#include "param/param_text_io.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nn/core/error.hpp"
#include "common/py_format.hpp"

namespace nncli {

namespace {

bool is_unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-' || c == '~';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

nn::Shape parse_shape_tuple(std::string_view line, const std::string& where) {
  line = trim(line);
  NN_CHECK(line.size() >= 2 && line.front() == '(' && line.back() == ')')
      << where << ": the first line must be the shape as a tuple such as (16, 1, 5, 5), got '" << line << "'";
  std::string_view body = line.substr(1, line.size() - 2);
  nn::Shape shape;
  while (!trim(body).empty()) {
    const size_t comma = body.find(',');
    std::string_view item = trim(body.substr(0, comma));
    int64_t dim = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), dim);
    NN_CHECK(ec == std::errc() && end == item.data() + item.size() && dim >= 0 && !item.empty())
        << where << ": bad dimension '" << item << "' in shape '" << line << "'";
    shape.push_back(dim);
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  return shape;
}

}  // namespace

std::string param_file_stem(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    if (c == '/') {
      out += '~';
    } else if (is_unreserved(c) || c == ' ') {
      out += char(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", unsigned(c));
      out += buf;
    }
  }
  return out;
}

std::string param_name_from_stem(const std::string& stem) {
  std::string out;
  for (size_t i = 0; i < stem.size(); ++i) {
    const char c = stem[i];
    if (c == '~') {
      out += '/';
    } else if (c == '%' && i + 2 < stem.size() && hex_value(stem[i + 1]) >= 0 && hex_value(stem[i + 2]) >= 0) {
      out += char(hex_value(stem[i + 1]) * 16 + hex_value(stem[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string python_shape_repr(const nn::Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

std::string format_param_text(const nn::ir::Parameter& parameter) {
  std::string out = python_shape_repr(parameter.shape);
  for (float v : parameter.data) {
    out += '\n';
    out += py_float_repr(double(v));
  }
  return out;
}

nn::ir::Parameter parse_param_text(std::string_view text, const std::string& name,
                                   const std::string& display_name) {
  nn::ir::Parameter parameter;
  parameter.name = name;
  parameter.need_grad = true;
  size_t line_no = 1;
  size_t newline = text.find('\n');
  parameter.shape = parse_shape_tuple(text.substr(0, newline), display_name + ":1");
  int64_t expected = 1;
  for (int64_t d : parameter.shape) {
    NN_CHECK(d == 0 || expected <= nn::kMaxArrayElements / d)
        << display_name << ":1: shape " << nn::to_string(parameter.shape) << " is too large";
    expected *= d;
  }
  while (newline != std::string_view::npos) {
    text.remove_prefix(newline + 1);
    ++line_no;
    newline = text.find('\n');
    std::string_view item = trim(text.substr(0, newline));
    if (item.empty()) continue;
    double value = 0.0;
    const std::string token(item);
    char* end = nullptr;
    value = std::strtod(token.c_str(), &end);  // accepts "nan", "inf" and exponents like Python's float()
    NN_CHECK(end == token.c_str() + token.size())
        << display_name << ":" << line_no << ": '" << item << "' is not a number";
    NN_CHECK(int64_t(parameter.data.size()) < expected)
        << display_name << ":" << line_no << ": more values than the shape " << nn::to_string(parameter.shape)
        << " holds (" << expected << ")";
    parameter.data.push_back(float(value));
  }
  NN_CHECK(int64_t(parameter.data.size()) == expected)
      << display_name << ": " << parameter.data.size() << " values, but the shape "
      << nn::to_string(parameter.shape) << " needs " << expected;
  return parameter;
}

}  // namespace nncli
