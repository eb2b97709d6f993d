// Training datasets for `nncli train`: cache handling (docs/command_line.md#train-datasets-and-caches) and
// seekable prefetching batch streams.
#include "train_data.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <numeric>

#include "formats/datasets/cache_data_source.hpp"
#include "formats/datasets/csv_data_source.hpp"
#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/data_iterator.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/core/random.hpp"

namespace nncli {

namespace ds = nn::formats::datasets;
namespace fs = std::filesystem;

namespace {

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

bool directory_has_files(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  return fs::directory_iterator(dir, ec) != fs::directory_iterator();
}

class StreamSource : public nn::train::BatchSource {
 public:
  StreamSource(std::shared_ptr<const ds::DataSource> source, int64_t batch_size, bool shuffle, uint32_t seed,
               std::string name, std::vector<int64_t> blocks, bool prefetch)
      : source_(std::move(source)),
        batch_size_(batch_size),
        shuffle_(shuffle),
        seed_(seed),
        name_(std::move(name)),
        blocks_(std::move(blocks)),
        prefetch_(prefetch) {
    NN_CHECK(source_->size() > 0) << "dataset " << in_quotes(name_) << " is empty";
    NN_CHECK(batch_size_ > 0) << "dataset " << in_quotes(name_) << ": batch_size must be positive, got "
                              << batch_size_;
    reset_stream();
  }
  ~StreamSource() override { discard_pending(); }

  const std::vector<std::string>& variables() const override { return source_->variables(); }
  int64_t size() const override { return source_->size(); }
  int64_t batch_size() const override { return batch_size_; }
  int64_t position() const override { return delivered_; }

  nn::train::Batch next() override {
    if (prefetch_ && !pending_.valid()) pending_ = launch();
    nn::train::Batch batch =
        nn::with_context("dataset " + in_quotes(name_), [&] { return prefetch_ ? pending_.get() : produce(); });
    ++delivered_;
    if (prefetch_) pending_ = launch();  // the next batch loads while the caller trains on this one
    return batch;
  }

  void seek(int64_t batches) override {
    discard_pending();
    reset_stream();
    const int64_t n = source_->size();
    const int64_t samples = batches * batch_size_;
    for (int64_t p = 0; p < samples / n; ++p) start_pass();
    pos_ = samples >= n ? n : pos_;  // a finished pass: the next sample starts a new one
    if (samples % n != 0) {
      start_pass();
      pos_ = samples % n;
    }
    delivered_ = batches;
  }

 private:
  void reset_stream() {
    rng_.seed(seed_);
    order_.clear();
    pos_ = source_->size();  // the first sample starts a pass
  }
  void start_pass() {
    if (shuffle_ && !blocks_.empty()) {
      // Cache files stay together (upstream's cache order): the files permuted, then samples in each.
      std::vector<int64_t> first(blocks_.size(), 0);
      for (size_t b = 1; b < blocks_.size(); ++b) first[b] = first[b - 1] + blocks_[b - 1];
      order_.clear();
      for (int64_t b : ds::random_permutation(int64_t(blocks_.size()), rng_))
        for (int64_t k : ds::random_permutation(blocks_[size_t(b)], rng_)) order_.push_back(first[size_t(b)] + k);
    } else if (shuffle_) {
      order_ = ds::random_permutation(source_->size(), rng_);
    } else if (int64_t(order_.size()) != source_->size()) {
      order_.resize(size_t(source_->size()));
      std::iota(order_.begin(), order_.end(), 0);
    }
    pos_ = 0;
  }
  // Runs on the loader thread (prefetch: only one is in flight at a time) or on the caller's.
  nn::train::Batch produce() {
    const auto& shapes = source_->shapes();
    nn::train::Batch batch;
    for (const nn::Shape& s : shapes) {
      nn::Shape bs{batch_size_};
      bs.insert(bs.end(), s.begin(), s.end());
      batch.shapes.push_back(bs);
      batch.data.emplace_back(size_t(nn::shape_size(bs)));
    }
    std::vector<float*> dst(shapes.size());
    std::vector<int64_t> samples(static_cast<size_t>(batch_size_));
    for (int64_t k = 0; k < batch_size_; ++k) {
      if (pos_ >= source_->size()) start_pass();
      const int64_t index = order_[size_t(pos_++)];
      samples[size_t(k)] = index;
      for (size_t v = 0; v < shapes.size(); ++v) dst[v] = batch.data[v].data() + k * nn::shape_size(shapes[v]);
      source_->load(index, dst);
    }
    batch.origin = [source = source_, samples = std::move(samples)](int64_t row, int column) {
      return source->sample_origin(samples.at(size_t(row)), column);
    };
    return batch;
  }
  std::future<nn::train::Batch> launch() {
    return std::async(std::launch::async, [this] { return produce(); });
  }
  void discard_pending() {
    if (!pending_.valid()) return;
    try {
      pending_.get();
    } catch (...) {
      // The batch is dropped anyway; a real error shows again when it is loaded for use.
    }
  }

  std::shared_ptr<const ds::DataSource> source_;
  int64_t batch_size_;
  bool shuffle_;
  uint32_t seed_;
  std::string name_;
  std::vector<int64_t> blocks_;  // sizes of the cache files in order (empty: no grouping)
  bool prefetch_;                // the next batch loads on a background thread
  nn::RandomEngine rng_;
  std::vector<int64_t> order_;
  int64_t pos_ = 0;
  int64_t delivered_ = 0;
  std::future<nn::train::Batch> pending_;
};

// Samples [first, first + count) of another source.
class SlicedSource : public ds::DataSource {
 public:
  SlicedSource(std::shared_ptr<const ds::DataSource> source, int64_t first, int64_t count)
      : source_(std::move(source)), first_(first), count_(count) {}
  int64_t size() const override { return count_; }
  const std::vector<std::string>& variables() const override { return source_->variables(); }
  const std::vector<nn::Shape>& shapes() const override { return source_->shapes(); }
  void load(int64_t index, const std::vector<float*>& out) const override { source_->load(first_ + index, out); }
  std::string storage_descr(int v) const override { return source_->storage_descr(v); }
  std::string sample_origin(int64_t index, int v) const override {
    return source_->sample_origin(first_ + index, v);
  }

 private:
  std::shared_ptr<const ds::DataSource> source_;
  int64_t first_, count_;
};

}  // namespace

std::pair<int64_t, int64_t> dataset_slice(int64_t n, int rank, int world) {
  if (world <= 1 || n <= 0) return {0, n};
  const int64_t count = (n + world - 1) / world;
  int64_t first = (count * rank) % n;
  if (first + count > n) first = n - count;
  return {first, count};
}

std::unique_ptr<nn::train::BatchSource> make_batch_source(std::shared_ptr<const ds::DataSource> source,
                                                          int64_t batch_size, bool shuffle, uint32_t seed,
                                                          const std::string& name,
                                                          const std::vector<int64_t>& blocks, bool prefetch) {
  return std::make_unique<StreamSource>(std::move(source), batch_size, shuffle, seed, name, blocks, prefetch);
}

void apply_dataset_overrides(nn::ir::Model& model, const std::vector<std::string>& overrides) {
  for (const auto& o : overrides) {
    const size_t eq = o.find('=');
    NN_CHECK_CODE(eq != std::string::npos && eq > 0 && eq + 1 < o.size(), nn::ErrorCode::kUsage)
        << "--dataset expects NAME=PATH, got " << in_quotes(o);
    const std::string name = o.substr(0, eq), path = o.substr(eq + 1);
    bool found = false;
    for (auto& d : model.datasets) {
      if (d.name != name) continue;
      found = true;
      std::error_code ec;
      if (ds::lower_extension(path) == ".cache" || fs::is_directory(path, ec)) {
        d.cache_dir = path;
        d.create_cache_explicitly = false;
        d.overwrite_cache = false;
        if (d.uri.empty()) d.uri = path;
      } else {
        d.uri = path;
        d.cache_dir.clear();
      }
      NN_LOG_VERBOSE << "dataset " << in_quotes(name) << " read from " << path;
    }
    NN_CHECK_CODE(found, nn::ErrorCode::kUsage) << "--dataset: the config has no dataset " << in_quotes(name);
  }
}

// Sample counts of the cache files of a cache directory, from cache_index.csv (empty when unreadable).
static std::vector<int64_t> cache_blocks(const std::string& dir, int64_t total) {
  std::vector<int64_t> blocks;
  std::ifstream f(fs::path(dir) / "cache_index.csv");
  std::string line;
  int64_t sum = 0;
  while (std::getline(f, line)) {
    const size_t comma = line.rfind(',');
    if (comma == std::string::npos) continue;
    try {
      blocks.push_back(std::stoll(line.substr(comma + 1)));
    } catch (const std::exception&) {
      return {};
    }
    sum += blocks.back();
  }
  return sum == total ? blocks : std::vector<int64_t>{};
}

// The implicit cache upstream writes while reading a dataset's CSV when its cache directory is missing or
// empty (or overwrite_cache): built here in file order before the first pass (one decode of each image), so
// every pass and every later run reads NPY files instead. A new cache is written beside the directory and
// renamed into place, so an interrupted run leaves none half written. False (with a warning; the run reads
// the CSV as before) when the place is not writable or holds a file that is not a directory (left as it is);
// a bad row or a full disk is an error as when reading.
static bool write_implicit_cache(const nn::ir::Dataset& d, const std::string& cache) {
  auto csv = ds::CsvDataSource::open(d.uri, ds::CsvDatasetOptions{false});
  ds::CacheWriteOptions wo;
  wo.original_csv = d.uri;
  if (directory_has_files(cache)) {  // overwrite_cache: its files are replaced one by one, the index last
    ds::write_npy_cache(*csv, cache, wo);
    return true;
  }
  const std::string partial = cache + ".partial-" + std::to_string(::getpid());
  std::error_code ec;
  const bool taken = fs::exists(fs::symlink_status(cache, ec)) && !fs::is_directory(fs::symlink_status(cache, ec));
  if (taken || (!fs::create_directories(partial, ec) && ec)) {
    NN_LOG_WARNING << "dataset " << in_quotes(d.name) << ": cannot write its cache " << in_quotes(cache) << " ("
                   << (taken ? std::string("a file that is not a directory is there") : ec.message())
                   << "): reading " << in_quotes(d.uri) << " directly";
    return false;
  }
  try {
    ds::write_npy_cache(*csv, partial, wo);
    fs::remove(cache, ec);  // an empty directory (checked above), or none
    fs::rename(partial, cache);
  } catch (...) {
    fs::remove_all(partial, ec);
    throw;
  }
  NN_LOG_VERBOSE << "wrote the cache of \"" << d.uri << "\" to " << cache;
  return true;
}

std::shared_ptr<const ds::DataSource> TrainDatasets::source(const nn::ir::Dataset& d, int index) {
  auto& cached = sources_[d.name];
  if (cached) return cached;
  const bool normalize = !d.no_image_normalization;
  const std::string& cache = d.cache_dir;
  cached = nn::with_context("dataset " + in_quotes(d.name), [&]() -> std::shared_ptr<const ds::DataSource> {
    std::error_code ec;
    if (!cache.empty() && (d.create_cache_explicitly || distributed())) {
      // Under MPI rank 0 alone writes the cache; the others read it after the barrier.
      const bool writer = !distributed() || communicator_->is_root();
      if (writer && (!fs::exists(fs::path(cache) / "cache_index.csv", ec) || d.overwrite_cache)) {
        NN_LOG_INFO << "Creating cache data for \"" << d.uri << "\"";
        auto csv = ds::CsvDataSource::open(d.uri, ds::CsvDatasetOptions{false});
        ds::CacheWriteOptions wo;
        wo.original_csv = d.uri;
        if (d.shuffle) {
          nn::RandomEngine rng{uint32_t(index)};
          wo.order = ds::random_permutation(csv->size(), rng);
        }
        ds::write_npy_cache(*csv, cache, wo);
      }
      if (distributed()) communicator_->barrier();
      return ds::CacheDataSource::open(cache, ds::CacheDatasetOptions{normalize});
    }
    if (cache.empty()) return ds::CsvDataSource::open(d.uri, ds::CsvDatasetOptions{normalize});
    if ((d.overwrite_cache || !directory_has_files(cache)) && !write_implicit_cache(d, cache))
      return ds::CsvDataSource::open(d.uri, ds::CsvDatasetOptions{normalize});
    return ds::CacheDataSource::open(cache, ds::CacheDatasetOptions{normalize});
  });
  return cached;
}

std::unique_ptr<nn::train::BatchSource> TrainDatasets::open(const nn::ir::Dataset& dataset, int index,
                                                            int64_t batch_size) {
  auto src = source(dataset, index);
  const auto cache = std::dynamic_pointer_cast<const ds::CacheDataSource>(src);  // else a CSV: images decoded
  std::vector<int64_t> blocks;
  if (distributed()) {
    const auto [first, count] = dataset_slice(src->size(), communicator_->rank(), communicator_->size());
    NN_LOG_VERBOSE << "dataset " << in_quotes(dataset.name) << ": rank " << communicator_->rank()
                   << " reads samples " << first << " to " << first + count - 1 << " of " << src->size();
    src = std::make_shared<SlicedSource>(src, first, count);
  } else if (cache) {
    blocks = cache_blocks(cache->dir(), src->size());
  }
  return make_batch_source(src, batch_size, dataset.shuffle, uint32_t(index), dataset.name, blocks,
                           /*prefetch=*/!cache);
}

}  // namespace nncli
