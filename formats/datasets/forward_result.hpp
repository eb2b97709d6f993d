// output_result.csv of `forward` (docs/command_line.md#forward): the dataset's rows (paths rewritten as
// upstream) followed by each executor output per sample, as columns or as per-sample CSV/PNG files.
#pragma once
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "formats/common/atomic_file.hpp"
#include "nn/core/shape.hpp"

namespace nn::formats::datasets {

// The input side of the result: header and rows, and which row each processed sample i belongs to.
struct ResultTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int64_t> order;  // processed sample i -> rows index
};

// From a dataset CSV: empty rows dropped; cells that are not numbers, outside '#' columns, become
// compute_full_path(root, cell) with root '.' or, with replace_path, the CSV folder's absolute path.
ResultTable result_table_from_csv(const std::string& csv_path, bool replace_path);
// From a cache directory: original.csv rows (every non-number cell rewritten against '.'), order.csv. A
// cache made without a source CSV has no original.csv: its `samples` rows are then named by an "index"
// column (the sample's position in the cache).
ResultTable result_table_from_cache(const std::string& cache_dir, int64_t samples);

// One executor output for one sample.
struct ResultOutput {
  std::string data_name;
  std::string type;  // OutputVariable.type: non-empty outputs are skipped (upstream quirk)
  Shape sample_shape;
  const float* data = nullptr;
};

class ForwardResultWriter {
 public:
  // std_header: the last executor's repeat_evaluation_type is "std" (single-value columns are then named
  // "Uncertainty(Std)", as upstream). The CSV is written to outdir/outfile.
  ForwardResultWriter(ResultTable table, std::string outdir, const std::string& outfile, std::string result_outdir,
                      bool std_header);
  // Sample i (0-based, in processing order). Samples past the table (the wrapped end of the last batch)
  // still get their files, as upstream, but no CSV row.
  void add_sample(int64_t i, const std::vector<ResultOutput>& outputs);
  int64_t size() const { return int64_t(table_.order.size()); }
  void close();

 private:
  void write_header(const std::vector<ResultOutput>& outputs);
  std::string write_file(int64_t output_index, int64_t i, int channel, bool per_channel, const ResultOutput& out);

  ResultTable table_;
  std::string outdir_, result_outdir_, csv_path_;
  bool std_header_ = false;
  bool header_written_ = false;
  std::unique_ptr<AtomicFile> csv_;  // output_result.csv appears only when close() succeeds
};

}  // namespace nn::formats::datasets
