// ForwardResultWriter and the result tables of CSV and cache datasets (nnabla_cli forward's output).
#include "formats/datasets/forward_result.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/image_io.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn::formats::datasets {

namespace fs = std::filesystem;

ResultTable result_table_from_csv(const std::string& csv_path, bool replace_path) {
  std::vector<CsvRecord> records = read_csv_file(csv_path);
  NN_CHECK(!records.empty()) << "'" << csv_path << "': the dataset CSV has no header row";
  ResultTable table;
  table.header = records.front().cells;
  std::string root = ".";
  if (replace_path) {
    std::string dir = parent_dir(csv_path);
    root = fs::absolute(fs::path(dir)).lexically_normal().string();
    if (root.size() > 1 && root.back() == '/') root.pop_back();
  }
  for (size_t r = 1; r < records.size(); ++r) {
    std::vector<std::string> row = records[r].cells;
    for (size_t c = 0; c < row.size(); ++c) {
      bool comment = c < table.header.size() && !table.header[c].empty() && table.header[c][0] == '#';
      if (!comment && !is_python_float(row[c])) row[c] = compute_full_path(root, row[c]);
    }
    table.order.push_back(int64_t(table.rows.size()));
    table.rows.push_back(std::move(row));
  }
  return table;
}

ResultTable result_table_from_cache(const std::string& cache_dir, int64_t samples) {
  ResultTable table;
  const std::string original = cache_dir + "/original.csv";
  if (!fs::exists(original)) {
    NN_LOG_INFO << "'" << original << "' is missing: output_result.csv names the samples by their index";
    table.header = {"index"};
    for (int64_t i = 0; i < samples; ++i) {
      table.rows.push_back({std::to_string(i)});
      table.order.push_back(i);
    }
    return table;
  }
  std::vector<CsvRecord> records = read_csv_file(original);
  NN_CHECK(!records.empty()) << "'" << original << "': no header row";
  table.header = records.front().cells;
  for (size_t r = 1; r < records.size(); ++r) {
    std::vector<std::string> row = records[r].cells;
    for (auto& cell : row)
      if (!is_python_float(cell)) cell = compute_full_path(".", cell);
    table.rows.push_back(std::move(row));
  }
  const std::string order = cache_dir + "/order.csv";
  if (fs::exists(order)) {
    std::vector<int64_t> by_position;
    for (const CsvRecord& rec : read_csv_file(order)) {
      double pos, orig;
      NN_CHECK(rec.cells.size() >= 2 && parse_python_float(rec.cells[0], pos) &&
               parse_python_float(rec.cells[1], orig))
          << order << ":" << rec.line << ": expected '<cache position>,<original row>'";
      if (by_position.size() <= size_t(pos)) by_position.resize(size_t(pos) + 1, 0);
      by_position[size_t(pos)] = int64_t(orig);
    }
    table.order = by_position;
  } else {
    for (size_t i = 0; i < table.rows.size(); ++i) table.order.push_back(int64_t(i));
  }
  for (int64_t o : table.order)
    NN_CHECK(o >= 0 && o < int64_t(table.rows.size()))
        << "'" << order << "': row " << o << " is not in original.csv";
  return table;
}

ForwardResultWriter::ForwardResultWriter(ResultTable table, std::string outdir, const std::string& outfile,
                                         std::string result_outdir, bool std_header)
    : table_(std::move(table)),
      outdir_(std::move(outdir)),
      result_outdir_(std::move(result_outdir)),
      std_header_(std_header) {
  fs::create_directories(outdir_);
  csv_path_ = (fs::path(outdir_) / outfile).string();
  csv_ = std::make_unique<AtomicFile>(csv_path_);
}

namespace {
enum class Kind { kSkip, kColumns, kCsvFile, kPng };
Kind kind_of(const ResultOutput& o) {
  if (!o.type.empty()) return Kind::kSkip;
  if (o.sample_shape.size() == 2) return Kind::kCsvFile;
  if (o.sample_shape.size() == 3) return Kind::kPng;
  return Kind::kColumns;
}
// Columns (or files) an output contributes per sample.
int64_t dims_of(const ResultOutput& o) {
  switch (kind_of(o)) {
    case Kind::kSkip: return 0;
    case Kind::kCsvFile: return 1;
    case Kind::kPng: return (o.sample_shape[0] == 1 || o.sample_shape[0] == 3) ? 1 : o.sample_shape[0];
    default: return shape_size(o.sample_shape);
  }
}
}  // namespace

void ForwardResultWriter::write_header(const std::vector<ResultOutput>& outputs) {
  std::vector<std::string> header = table_.header;
  for (const ResultOutput& o : outputs) {
    int64_t dim = dims_of(o);
    if (dim == 1) {
      header.push_back(std_header_ ? "Uncertainty(Std)" : o.data_name);
    } else {
      for (int64_t d = 0; d < dim; ++d) header.push_back(o.data_name + "__" + std::to_string(d));
    }
  }
  csv_->write(format_csv_row(header) + "\n");
  header_written_ = true;
}

std::string ForwardResultWriter::write_file(int64_t output_index, int64_t i, int channel, bool per_channel,
                                            const ResultOutput& out) {
  char folder[48];
  std::snprintf(folder, sizeof(folder), "%lld_%04lld", (long long)output_index, (long long)(i / 1000));
  Kind kind = kind_of(out);
  std::string name = (per_channel ? std::to_string(channel) + "_" : std::string()) + std::to_string(i) +
                     (kind == Kind::kPng ? ".png" : ".csv");
  std::string relative = std::string(folder) + "/" + name;
  fs::path full = fs::path(outdir_) / result_outdir_ / folder / name;
  fs::create_directories(full.parent_path());
  const Shape& s = out.sample_shape;
  if (kind == Kind::kCsvFile) {
    std::string text;
    for (int64_t r = 0; r < s[0]; ++r) {
      std::vector<std::string> cells;
      for (int64_t c = 0; c < s[1]; ++c) cells.push_back(format_float32(out.data[r * s[1] + c]));
      text += format_csv_row(cells) + "\n";
    }
    write_file_atomic(full.string(), text);
  } else {
    const int64_t channels = s[0], h = s[1], w = s[2], plane = h * w;
    const bool rgb = channels == 3;
    std::vector<uint8_t> pixels(size_t(plane * (rgb ? 3 : 1)));
    auto to_u8 = [](float v) {
      float x = v * 255.0f;
      if (!(x > 0.0f)) return uint8_t(0);
      return uint8_t(std::min(x, 255.0f));
    };
    for (int64_t p = 0; p < plane; ++p) {
      if (rgb) {
        for (int c = 0; c < 3; ++c) pixels[size_t(p * 3 + c)] = to_u8(out.data[c * plane + p]);
      } else {
        pixels[size_t(p)] = to_u8(out.data[(per_channel ? channel : 0) * plane + p]);
      }
    }
    write_png(full.string(), int(w), int(h), rgb ? 3 : 1, pixels);
  }
  std::string cell =
      result_outdir_.empty() ? "./" + relative : compute_full_path(".", result_outdir_ + "/" + relative);
  return cell;
}

void ForwardResultWriter::add_sample(int64_t i, const std::vector<ResultOutput>& outputs) {
  if (!header_written_) write_header(outputs);
  std::vector<std::string> cells;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const ResultOutput& out = outputs[o];
    Kind kind = kind_of(out);
    if (kind == Kind::kSkip) continue;
    if (kind == Kind::kColumns) {
      int64_t n = shape_size(out.sample_shape);
      for (int64_t k = 0; k < n; ++k) cells.push_back(format_float32(out.data[k]));
      continue;
    }
    int64_t dim = dims_of(out);
    for (int64_t c = 0; c < dim; ++c) cells.push_back(write_file(int64_t(o), i, int(c), dim > 1, out));
  }
  if (i >= int64_t(table_.order.size())) return;
  std::vector<std::string> row = table_.rows[size_t(table_.order[size_t(i)])];
  row.insert(row.end(), cells.begin(), cells.end());
  csv_->write(format_csv_row(row) + "\n");
}

void ForwardResultWriter::close() { csv_->commit(); }

}  // namespace nn::formats::datasets
