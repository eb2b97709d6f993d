// CSV parsing/printing and Python-compatible number and path text, for dataset and result files.
#include "formats/datasets/csv_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::datasets {

std::vector<CsvRecord> parse_csv(std::string_view text, const std::string& display_name) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<CsvRecord> records;
  CsvRecord current;
  std::string cell;
  int64_t line = 1;
  bool in_quotes = false, cell_started = false, record_has_content = false;
  int64_t quote_line = 0;
  auto end_cell = [&] {
    current.cells.push_back(std::move(cell));
    cell.clear();
    cell_started = false;
  };
  auto end_record = [&] {
    if (record_has_content) {
      end_cell();
      records.push_back(std::move(current));
    }
    current = CsvRecord{};
    cell.clear();
    cell_started = false;
    record_has_content = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!record_has_content) current.line = line;
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          cell += '"';
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        if (c == '\n') ++line;
        cell += c;
      }
      continue;
    }
    if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      end_record();
      ++line;
      continue;
    }
    record_has_content = true;
    if (c == ',') {
      end_cell();
    } else if (c == '"' && !cell_started) {
      in_quotes = true;
      cell_started = true;
      quote_line = line;
    } else {
      cell += c;
      cell_started = true;
    }
  }
  NN_CHECK(!in_quotes) << display_name << ":" << quote_line << ": unterminated quoted field";
  end_record();
  return records;
}

std::vector<CsvRecord> read_csv_file(const std::string& path) { return parse_csv(read_file(path), path); }

bool parse_python_float(std::string_view text, double& value) {
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (text.empty()) return false;
  std::string s;
  size_t i = 0;
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    i = 1;
  }
  std::string word(text.substr(i));
  std::transform(word.begin(), word.end(), word.begin(), [](char c) { return char(std::tolower(c)); });
  if (word == "inf" || word == "infinity" || word == "nan") {
    value = word == "nan" ? std::nan("") : HUGE_VAL;
    if (negative) value = -value;
    return true;
  }
  // Digits with single underscores between them (PEP 515), an optional fraction and exponent.
  auto digits = [&](size_t& pos) {
    size_t start = pos;
    while (pos < text.size()) {
      if (std::isdigit(static_cast<unsigned char>(text[pos]))) {
        s += text[pos++];
      } else if (text[pos] == '_' && pos > start && pos + 1 < text.size() &&
                 std::isdigit(static_cast<unsigned char>(text[pos + 1])) &&
                 std::isdigit(static_cast<unsigned char>(text[pos - 1]))) {
        ++pos;
      } else {
        break;
      }
    }
    return pos > start;
  };
  if (negative) s += '-';
  bool int_digits = digits(i);
  bool frac_digits = false;
  if (i < text.size() && text[i] == '.') {
    s += '.';
    ++i;
    frac_digits = digits(i);
  }
  if (!int_digits && !frac_digits) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    s += 'e';
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) s += text[i++];
    if (!digits(i)) return false;
  }
  if (i != text.size()) return false;
  value = std::strtod(s.c_str(), nullptr);
  return true;
}

namespace {

// Python repr layout for shortest digits "d.ddd" with decimal exponent exp.
std::string python_float_layout(const std::string& scientific) {
  // scientific looks like "-1.2345e+08" or "5e-05".
  const size_t epos = scientific.find('e');
  const int exp = std::atoi(scientific.c_str() + epos + 1);
  const std::string sign = scientific[0] == '-' ? "-" : "";
  std::string digits;
  for (size_t i = sign.size(); i < epos; ++i)
    if (scientific[i] != '.') digits += scientific[i];
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (exp >= -4 && exp < 16) {
    std::string out;
    if (exp < 0) {
      out.assign("0.").append(size_t(-exp - 1), '0').append(digits);
    } else if (int(digits.size()) <= exp + 1) {
      out = digits + std::string(size_t(exp + 1 - int(digits.size())), '0') + ".0";
    } else {
      out = digits.substr(0, size_t(exp + 1)) + "." + digits.substr(size_t(exp + 1));
    }
    return sign + out;
  }
  std::string out = digits.substr(0, 1);
  if (digits.size() > 1) out.append(".").append(digits, 1, std::string::npos);
  char buf[16];
  std::snprintf(buf, sizeof(buf), "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
  return sign + out + buf;
}

template <class T>
std::string format_python_float(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  return python_float_layout(std::string(buf, res.ptr));
}

}  // namespace

std::string format_float32(float value) { return format_python_float(value); }
std::string format_float64(double value) { return format_python_float(value); }

std::string format_csv_row(const std::vector<std::string>& cells) {
  std::string out;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i) out += ',';
    const std::string& c = cells[i];
    if (c.find_first_of(",\"\r\n") == std::string::npos) {
      out += c;
      continue;
    }
    out += '"';
    for (char ch : c) {
      if (ch == '"') out += '"';
      out += ch;
    }
    out += '"';
  }
  return out;
}

namespace {
std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t hit = s.find(from, pos);
    if (hit == std::string::npos) break;
    out += s.substr(pos, hit - pos) + to;
    pos = hit + from.size();
  }
  return out + s.substr(pos);
}
}  // namespace

std::string compute_full_path(const std::string& root, const std::string& file) {
  std::string joined;
  if (!file.empty() && file[0] == '/') {
    joined = file;
  } else if (root.empty() || root.back() == '/') {
    joined = root + file;
  } else {
    joined = root + "/" + file;
  }
  std::replace(joined.begin(), joined.end(), '\\', '/');
  return replace_all(joined, "/./", "/");
}

std::string resolve_data_path(const std::string& csv_dir, const std::string& cell) {
  std::string p = cell;
  std::replace(p.begin(), p.end(), '\\', '/');
  if (!p.empty() && p[0] == '/') return p;
  return compute_full_path(csv_dir.empty() ? "." : csv_dir, p);
}

std::string parent_dir(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string lower_extension(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](char c) { return char(std::tolower(c)); });
  return ext;
}

}  // namespace nn::formats::datasets
