// BatchSource: the endless mini-batch stream a training dataset provides (implemented outside libnn,
// e.g. by the app over formats/datasets), with a position that can be saved and restored.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"
#include "nn/ir/model.hpp"

namespace nn::train {

// One mini-batch: per dataset variable its shape (batch_size, *sample shape) and values in C order.
struct Batch {
  std::vector<Shape> shapes;
  std::vector<std::vector<float>> data;
  // Where row r of column c came from, for messages ("train.csv:18: column 2 ('y')"); may be empty.
  std::function<std::string(int64_t r, int c)> origin;
};

class BatchSource {
 public:
  virtual ~BatchSource() = default;
  // Variable (column) names, in dataset order.
  virtual const std::vector<std::string>& variables() const = 0;
  // Samples in one pass over the dataset.
  virtual int64_t size() const = 0;
  virtual int64_t batch_size() const = 0;
  // The next full batch (a pass ending inside a batch continues with the next pass).
  virtual Batch next() = 0;
  // Batches delivered so far; seek(n) makes the next batch the one a fresh source would deliver as
  // number n (deterministic for a given dataset and seed: used to resume training exactly).
  virtual int64_t position() const = 0;
  virtual void seek(int64_t batches) = 0;

  int find_variable(const std::string& name) const {
    const auto& v = variables();
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] == name) return int(i);
    return -1;
  }
};

// Opens the dataset (index = its position among the model's datasets; upstream seeds shuffling with it)
// with a batch size. The trainer calls it once for the optimizers' stream and once for the monitors'.
using BatchSourceFactory =
    std::function<std::unique_ptr<BatchSource>(const ir::Dataset& dataset, int index, int64_t batch_size)>;

}  // namespace nn::train
