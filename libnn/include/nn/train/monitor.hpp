// MonitorSet: evaluation of a model's monitors during training (docs/command_line.md#train-evaluation):
// one network per monitor (sharing the parameters), one batch stream per dataset shared by the monitors
// that read it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nn/core/context.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"
#include "nn/train/batch_source.hpp"
#include "nn/train/communicator.hpp"

namespace nn::train {

class MonitorSet {
 public:
  // Throws nn::Error naming the monitor when its network, a dataset or a variable is missing.
  // communicator (data-parallel runs, datasets sliced per process): the sums and batch counts are summed
  // over every process; nullptr: this process alone.
  MonitorSet(const ir::Model& model, ir::ParameterStore& params, const BatchSourceFactory& open_dataset,
             const nn::Context& context, uint32_t seed, Communicator* communicator = nullptr);
  ~MonitorSet();

  using Progress = std::function<void(const std::string& state, double fraction)>;
  // Every monitor in file order: error = (sum over batches of the mean of each monitor variable) /
  // batches, with batches = max(dataset sizes) // max(batch sizes). NaN/Inf -> 0 with a warning.
  // it / iter_per_epoch / max_epoch feed the reserved %names.
  std::vector<std::pair<std::string, double>> evaluate(const Progress& progress, int64_t it,
                                                       int64_t iter_per_epoch, int64_t max_epoch);

  std::map<std::string, int64_t> positions() const;
  // Throws nn::Error for a position more than `evaluations` runs of every monitor could have reached.
  void seek(const std::map<std::string, int64_t>& positions, int64_t evaluations);
  size_t size() const;

 private:
  struct Entry;
  std::vector<std::unique_ptr<Entry>> monitors_;
  std::map<std::string, std::unique_ptr<BatchSource>> sources_;
  Communicator* communicator_ = nullptr;
};

}  // namespace nn::train
