// NNC-style CSV dataset (docs/datasets.md#csv-datasets): header NAME[__INDEX][:LABEL], '#' comment columns,
// cells that are numbers or paths to images / CSV matrices / NPY arrays relative to the CSV's folder.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/data_source.hpp"

namespace nn::formats::datasets {

struct CsvDatasetOptions {
  bool normalize = true;  // images / 255 (or / 65535); false keeps raw integer values
};

// One value of a cell, loaded: a number is shape (1,) for plain columns.
struct CellValue {
  Shape shape;
  std::vector<float> values;
  std::string descr = "<f4";  // NPY dtype of the stored data ("|u1", "<u2", "<f8", "<f4")
};

// Loads the data a cell names: a number, or a file by extension (.png .jpg .jpeg .bmp .gif .tif .tiff
// .csv .npy; others fail with `File format with extension "<ext>" is not supported.`).
CellValue load_cell(const std::string& cell, const std::string& csv_dir, bool normalize);

class CsvDataSource : public DataSource {
 public:
  // Reads the CSV and loads its first row to learn every variable's shape. Throws nn::Error with
  // "file:line: column 'x' ..." for bad rows.
  static std::shared_ptr<CsvDataSource> open(const std::string& path, const CsvDatasetOptions& options = {});

  int64_t size() const override { return int64_t(rows_.size()); }
  const std::vector<std::string>& variables() const override { return variables_; }
  const std::vector<Shape>& shapes() const override { return shapes_; }
  void load(int64_t index, const std::vector<float*>& out) const override;
  std::string storage_descr(int v) const override { return descrs_[size_t(v)]; }
  std::string sample_origin(int64_t index, int v) const override;

  const std::string& path() const { return path_; }
  const std::vector<std::string>& header() const { return header_; }  // every column, '#' ones included
  const std::vector<CsvRecord>& rows() const { return rows_; }        // raw cells, every column

 private:
  struct Column {
    int csv_index = 0;     // position in the CSV row
    int variable = 0;      // index into variables_
    bool indexed = false;  // NAME__k column: one element of a vector
  };
  CsvDataSource() = default;
  std::string describe(const CsvRecord& row, const Column& column) const;

  std::string path_, dir_;
  CsvDatasetOptions options_;
  std::vector<std::string> header_;
  std::vector<CsvRecord> rows_;
  std::vector<Column> columns_;
  std::vector<std::string> variables_;
  std::vector<Shape> shapes_;
  std::vector<std::string> descrs_;
};

}  // namespace nn::formats::datasets
