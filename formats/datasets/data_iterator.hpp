// DataIterator: endless full mini-batches over a DataSource (docs/command_line.md#train-datasets-and-caches),
// optionally shuffled per pass and prefetched by a background thread while the caller runs the network.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "formats/datasets/data_source.hpp"
#include "nn/core/random.hpp"

namespace nn::formats::datasets {

struct Batch {
  std::vector<Shape> shapes;             // per variable: (batch_size, *sample shape)
  std::vector<std::vector<float>> data;  // per variable, C order
  std::vector<int64_t> indices;          // source sample of each batch position
  std::vector<int64_t> epochs;           // pass (0-based) each position belongs to
};

struct IteratorOptions {
  int64_t batch_size = 1;
  bool shuffle = false;  // a new random permutation at the start of every pass
  uint32_t seed = 0;     // for the permutations
  bool prefetch = true;  // produce the next batch on a background thread
  int queue_depth = 2;   // batches prepared ahead when prefetching
};

class DataIterator {
 public:
  DataIterator(std::shared_ptr<const DataSource> source, const IteratorOptions& options);
  ~DataIterator();
  DataIterator(const DataIterator&) = delete;
  DataIterator& operator=(const DataIterator&) = delete;

  // The next full batch; a pass ending inside a batch continues with the next pass. Rethrows errors
  // raised while loading (on whichever thread loaded).
  Batch next();

  int64_t size() const { return source_->size(); }
  int64_t batch_size() const { return options_.batch_size; }
  const std::vector<std::string>& variables() const { return source_->variables(); }
  const DataSource& source() const { return *source_; }

 private:
  Batch produce();  // runs on one thread at a time (the worker, or the caller without prefetch)
  void worker();

  std::shared_ptr<const DataSource> source_;
  IteratorOptions options_;
  RandomEngine rng_;
  std::vector<int64_t> order_;
  int64_t position_ = 0;  // next position in order_
  int64_t epoch_ = -1;

  std::mutex mutex_;
  std::condition_variable ready_, space_;
  std::deque<Batch> queue_;
  std::exception_ptr error_;
  bool stop_ = false;
  std::thread thread_;
};

// A random permutation of 0..n-1 drawn from rng (Fisher-Yates), identical on every platform.
std::vector<int64_t> random_permutation(int64_t n, RandomEngine& rng);

}  // namespace nn::formats::datasets
