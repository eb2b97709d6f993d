// DataIterator: batch assembly with pass wrap-around, per-pass shuffling and a prefetching worker thread.
#include "formats/datasets/data_iterator.hpp"

#include <numeric>

#include "nn/core/error.hpp"

namespace nn::formats::datasets {

std::vector<int64_t> random_permutation(int64_t n, RandomEngine& rng) {
  std::vector<int64_t> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (int64_t i = n - 1; i > 0; --i) {
    // 64 random bits reduced to [0, i] by multiply-shift: no modulo bias worth noticing, no libstdc++ detail.
    uint64_t r = (uint64_t(rng()) << 32) | uint64_t(rng());
    int64_t j = int64_t((unsigned __int128)r * uint64_t(i + 1) >> 64);
    std::swap(p[size_t(i)], p[size_t(j)]);
  }
  return p;
}

DataIterator::DataIterator(std::shared_ptr<const DataSource> source, const IteratorOptions& options)
    : source_(std::move(source)), options_(options), rng_(options.seed) {
  NN_CHECK(source_ && source_->size() > 0) << "DataIterator: the dataset is empty";
  NN_CHECK(options_.batch_size > 0) << "DataIterator: batch_size must be positive, got " << options_.batch_size;
  if (options_.queue_depth < 1) options_.queue_depth = 1;
  if (options_.prefetch) thread_ = std::thread([this] { worker(); });
}

DataIterator::~DataIterator() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  space_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Batch DataIterator::produce() {
  const int64_t b = options_.batch_size;
  const auto& shapes = source_->shapes();
  Batch batch;
  for (const Shape& s : shapes) {
    Shape bs{b};
    bs.insert(bs.end(), s.begin(), s.end());
    batch.shapes.push_back(bs);
    batch.data.emplace_back(size_t(shape_size(bs)));
  }
  std::vector<float*> dst(shapes.size());
  for (int64_t k = 0; k < b; ++k) {
    if (position_ >= int64_t(order_.size())) {
      ++epoch_;
      position_ = 0;
      if (options_.shuffle) {
        order_ = random_permutation(source_->size(), rng_);
      } else if (int64_t(order_.size()) != source_->size()) {
        order_.resize(size_t(source_->size()));
        std::iota(order_.begin(), order_.end(), 0);
      }
    }
    int64_t index = order_[size_t(position_++)];
    for (size_t v = 0; v < shapes.size(); ++v) dst[v] = batch.data[v].data() + k * shape_size(shapes[v]);
    source_->load(index, dst);
    batch.indices.push_back(index);
    batch.epochs.push_back(epoch_);
  }
  return batch;
}

void DataIterator::worker() {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      space_.wait(lock, [this] { return stop_ || int(queue_.size()) < options_.queue_depth; });
      if (stop_) return;
    }
    try {
      Batch batch = produce();
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(batch));
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      ready_.notify_all();
      return;
    }
    ready_.notify_all();
  }
}

Batch DataIterator::next() {
  if (!options_.prefetch) return produce();
  std::unique_lock<std::mutex> lock(mutex_);
  ready_.wait(lock, [this] { return !queue_.empty() || error_; });
  if (queue_.empty()) std::rethrow_exception(error_);
  Batch batch = std::move(queue_.front());
  queue_.pop_front();
  lock.unlock();
  space_.notify_all();
  return batch;
}

}  // namespace nn::formats::datasets
