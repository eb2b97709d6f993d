// CSV text helpers shared by datasets and result files: RFC 4180 parsing with line numbers, Python-style
// float parsing/printing, and nnabla's path joining (compute_full_path).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace nn::formats::datasets {

struct CsvRecord {
  std::vector<std::string> cells;
  int64_t line = 0;  // 1-based line where the record starts
};

// Parses CSV text (BOM stripped, "\n", "\r\n" or "\r" line ends, double-quote quoting as Python's csv).
// Blank lines are skipped. display_name appears in errors ("file:line: unterminated quoted field").
std::vector<CsvRecord> parse_csv(std::string_view text, const std::string& display_name);
// Reads and parses a file; throws nn::Error naming the file when it cannot be read.
std::vector<CsvRecord> read_csv_file(const std::string& path);

// Python float(): optional surrounding whitespace, decimal or exponent form, inf/nan words; no hex.
bool parse_python_float(std::string_view text, double& value);
inline bool is_python_float(std::string_view text) {
  double v;
  return parse_python_float(text, v);
}

// Python str() of a float32 / float64 value: shortest round-trip digits, '1.0', '0.1', '3.5e-05', '1e+16'.
std::string format_float32(float value);
std::string format_float64(double value);

// One CSV line as Python's csv.writer (QUOTE_MINIMAL) writes it, without the line end.
std::string format_csv_row(const std::vector<std::string>& cells);

// nnabla's compute_full_path: os.path.join(root, file), every '\' and '/' made '/', then '/./' -> '/'.
std::string compute_full_path(const std::string& root, const std::string& file);
// Resolves a dataset cell path against the CSV's folder ('\' accepted as separator).
std::string resolve_data_path(const std::string& csv_dir, const std::string& cell);
// Folder of a path ("" -> "."), and the lower-cased extension with its dot (".png").
std::string parent_dir(const std::string& path);
std::string lower_extension(const std::string& path);

}  // namespace nn::formats::datasets
