// nnabla cache directories (docs/datasets.md#cache-directories): cache_info.csv + cache_index.csv +
// cache_*.npy (or *.h5), read as a DataSource in cache position order; writing a cache from any DataSource.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "formats/datasets/data_source.hpp"

namespace nn::formats::datasets {

struct CacheDatasetOptions {
  bool normalize = true;  // uint8 / 255 and uint16 / 65535 on read
};

class CacheDataSource : public DataSource {
 public:
  static std::shared_ptr<CacheDataSource> open(const std::string& dir, const CacheDatasetOptions& options = {});

  int64_t size() const override { return total_; }
  const std::vector<std::string>& variables() const override { return variables_; }
  const std::vector<Shape>& shapes() const override { return shapes_; }
  void load(int64_t index, const std::vector<float*>& out) const override;
  std::string sample_origin(int64_t index, int v) const override;

  const std::string& dir() const { return dir_; }
  // order.csv: original CSV row of each cache position (identity when the file is absent).
  std::vector<int64_t> original_order() const;

 private:
  struct CacheFile {
    std::string path;
    int64_t count = 0;
    int64_t first = 0;  // cache position of its first sample
  };
  struct Loaded {                          // one cache file, decoded
    std::vector<std::vector<float>> data;  // per variable, (count, *shape)
  };
  CacheDataSource() = default;
  std::shared_ptr<const Loaded> load_file(size_t file) const;

  std::string dir_;
  CacheDatasetOptions options_;
  bool h5_ = false;
  std::vector<std::string> variables_;
  std::vector<Shape> shapes_;
  std::vector<CacheFile> files_;
  int64_t total_ = 0;

  mutable std::mutex mutex_;
  mutable std::map<size_t, std::shared_ptr<const Loaded>> recent_;  // a few decoded files
};

struct CacheWriteOptions {
  int64_t samples_per_file = 100;  // [DATA_ITERATOR] data_source_file_cache_size
  std::vector<int64_t> order;      // source index per cache position (empty: 0..n-1)
  std::string original_csv;        // path copied to original.csv ("" = none)
};

// Writes `source` as an NPY cache into dir (created if needed): cache files of float32 records,
// cache_index.csv, cache_info.csv, order.csv and optionally original.csv.
void write_npy_cache(const DataSource& source, const std::string& dir, const CacheWriteOptions& options = {});

}  // namespace nn::formats::datasets
