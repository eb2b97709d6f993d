// CsvDataSource: header analysis, row checks and per-cell loading of NNC-style CSV datasets.
#include "formats/datasets/csv_data_source.hpp"

#include <cstring>
#include <sstream>

#include "formats/datasets/image_io.hpp"
#include "formats/datasets/npy.hpp"
#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::datasets {

namespace {

CellValue load_csv_matrix(const std::string& path) {
  std::vector<CsvRecord> records = read_csv_file(path);
  CellValue value;
  size_t cols = 0;
  for (const CsvRecord& r : records) {
    if (value.shape.empty()) cols = r.cells.size();
    NN_CHECK(r.cells.size() == cols) << path << ":" << r.line << ": " << r.cells.size()
                                     << " values, the first row has " << cols;
    for (const std::string& c : r.cells) {
      double v;
      NN_CHECK(parse_python_float(c, v)) << path << ":" << r.line << ": '" << c << "' is not a number";
      value.values.push_back(float(v));
    }
    value.shape = {int64_t(records.size()), int64_t(cols)};
  }
  value.descr = "<f8";
  if (records.empty()) value.shape = {0};
  return value;
}

CellValue load_npy_file(const std::string& path) {
  std::string bytes = read_file(path);
  size_t offset = 0;
  NpyArray array = read_npy(bytes, offset, path);
  CellValue value;
  value.shape = array.shape;
  value.values.assign(array.values.begin(), array.values.end());
  return value;
}

}  // namespace

CellValue load_cell(const std::string& cell, const std::string& csv_dir, bool normalize) {
  CellValue value;
  double number;
  if (parse_python_float(cell, number)) {
    value.shape = {1};
    value.values = {float(number)};
    return value;
  }
  std::string ext = lower_extension(cell);
  std::string path = resolve_data_path(csv_dir, cell);
  if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".gif" || ext == ".tif" ||
      ext == ".tiff" || ext == ".pgm" || ext == ".ppm") {
    DecodedImage image = read_image(path);
    value.shape = image.shape();
    value.values.resize(image.pixels.size());
    image_to_float(image, normalize, value.values.data());
    value.descr = image.bits == 16 ? "<u2" : "|u1";
    return value;
  }
  if (ext == ".csv") return load_csv_matrix(path);
  if (ext == ".npy") return load_npy_file(path);
  NN_FAIL(ErrorCode::kInvalid) << "File format with extension \"" << ext << "\" is not supported.";
}

std::shared_ptr<CsvDataSource> CsvDataSource::open(const std::string& path, const CsvDatasetOptions& options) {
  std::shared_ptr<CsvDataSource> src(new CsvDataSource());
  src->path_ = path;
  src->dir_ = parent_dir(path);
  src->options_ = options;
  std::vector<CsvRecord> records = read_csv_file(path);
  NN_CHECK(!records.empty()) << "'" << path << "': the dataset CSV has no header row";
  src->header_ = records.front().cells;
  src->rows_.assign(records.begin() + 1, records.end());

  std::vector<bool> indexed_variable;
  for (size_t i = 0; i < src->header_.size(); ++i) {
    const std::string& h = src->header_[i];
    if (!h.empty() && h[0] == '#') continue;
    std::string name = h.substr(0, h.find(':'));
    size_t sep = name.find("__");
    bool indexed = sep != std::string::npos;
    if (indexed) name = name.substr(0, sep);
    NN_CHECK(!name.empty()) << path << ":" << records.front().line << ": column " << i + 1
                            << " has no variable name in its header '" << h << "'";
    int v = src->find_variable(name);
    if (v < 0) {
      v = int(src->variables_.size());
      src->variables_.push_back(name);
      indexed_variable.push_back(indexed);
    } else {
      NN_CHECK(indexed && indexed_variable[size_t(v)])
          << path << ":" << records.front().line << ": column " << i + 1 << " ('" << h << "') repeats variable '"
          << name << "'";
    }
    src->columns_.push_back(Column{int(i), v, indexed});
  }
  NN_CHECK(!src->rows_.empty()) << "'" << path << "': the dataset has no data rows";

  for (const CsvRecord& row : src->rows_) {
    NN_CHECK(row.cells.size() == src->header_.size()) << path << ":" << row.line << ": " << row.cells.size()
                                                      << " columns, the header has " << src->header_.size();
  }
  // Shapes from the first row.
  src->shapes_.assign(src->variables_.size(), Shape{});
  src->descrs_.assign(src->variables_.size(), "<f4");
  const CsvRecord& first = src->rows_.front();
  for (const Column& c : src->columns_) {
    Shape& s = src->shapes_[size_t(c.variable)];
    if (c.indexed) {
      s = {s.empty() ? 1 : s[0] + 1};
    } else {
      CellValue value = with_context(src->describe(first, c), [&] {
        return load_cell(first.cells[size_t(c.csv_index)], src->dir_, options.normalize);
      });
      s = value.shape;
      src->descrs_[size_t(c.variable)] = value.descr;
    }
  }
  return src;
}

std::string CsvDataSource::describe(const CsvRecord& row, const Column& column) const {
  std::ostringstream os;
  os << path_ << ":" << row.line << ": column " << column.csv_index + 1 << " ('"
     << header_[size_t(column.csv_index)] << "')";
  return os.str();
}

std::string CsvDataSource::sample_origin(int64_t index, int v) const {
  NN_INTERNAL_CHECK(index >= 0 && index < size()) << "row " << index;
  for (const Column& c : columns_)
    if (c.variable == v) return describe(rows_[size_t(index)], c);  // a vector's first column
  return DataSource::sample_origin(index, v);
}

void CsvDataSource::load(int64_t index, const std::vector<float*>& out) const {
  NN_INTERNAL_CHECK(index >= 0 && index < size() && out.size() == variables_.size()) << "row " << index;
  const CsvRecord& row = rows_[size_t(index)];
  NN_CHECK(row.cells.size() == header_.size())
      << path_ << ":" << row.line << ": " << row.cells.size() << " columns, the header has " << header_.size();
  std::vector<int64_t> filled(variables_.size(), 0);
  for (const Column& c : columns_) {
    const std::string& cell = row.cells[size_t(c.csv_index)];
    float* dst = out[size_t(c.variable)];
    if (c.indexed) {
      double v;
      NN_CHECK(parse_python_float(cell, v)) << describe(row, c) << ": '" << cell << "' is not a number";
      dst[filled[size_t(c.variable)]++] = float(v);
      continue;
    }
    CellValue value = with_context(describe(row, c), [&] { return load_cell(cell, dir_, options_.normalize); });
    const Shape& expected = shapes_[size_t(c.variable)];
    NN_CHECK(value.shape == expected) << describe(row, c) << ": '" << cell << "' has shape "
                                      << to_string(value.shape) << ", the first row's has " << to_string(expected);
    std::memcpy(dst, value.values.data(), value.values.size() * sizeof(float));
  }
}

}  // namespace nn::formats::datasets
