// Training datasets for `nncli train` (docs/command_line.md#train-datasets-and-caches): CSV or cache per the
// dataset's cache settings, and shuffled, prefetched, seekable mini-batch streams over them
// (nn::train::BatchSource).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "formats/datasets/data_source.hpp"
#include "nn/ir/model.hpp"
#include "nn/train/batch_source.hpp"
#include "nn/train/communicator.hpp"

namespace nncli {

// "NAME=PATH" overrides of dataset locations (--dataset): a PATH ending in .cache (or naming a directory)
// becomes the dataset's cache_dir (read as an existing cache), anything else its uri (CSV, no cache).
void apply_dataset_overrides(nn::ir::Model& model, const std::vector<std::string>& overrides);

// Opens each dataset once (creating an explicit cache when asked) and hands out batch streams over it.
// With a distributed communicator (MPI, docs/command_line.md#train-mpi) a dataset with a cache_dir always
// goes through its cache, created by rank 0 alone while the others wait, and every stream covers this
// process's slice.
class TrainDatasets {
 public:
  explicit TrainDatasets(nn::train::Communicator* communicator = nullptr) : communicator_(communicator) {}
  std::unique_ptr<nn::train::BatchSource> open(const nn::ir::Dataset& dataset, int index, int64_t batch_size);

 private:
  std::shared_ptr<const nn::formats::datasets::DataSource> source(const nn::ir::Dataset& dataset, int index);
  bool distributed() const { return communicator_ && communicator_->distributed(); }
  nn::train::Communicator* communicator_;
  std::map<std::string, std::shared_ptr<const nn::formats::datasets::DataSource>> sources_;
};

// Upstream's slice of process `rank` among `world` over n samples: ceil(n / world) samples from
// (rank * that) % n, the last slice shifted back to end at n. Returns {first, count}.
std::pair<int64_t, int64_t> dataset_slice(int64_t n, int rank, int world);

// A BatchSource over a DataSource: rows in order or a new permutation per pass (seeded). blocks: sizes of
// consecutive sample groups (cache files) that shuffling keeps together (groups permuted, then samples within
// each); empty = none. prefetch: the next batch loads on a background thread while the caller trains (worth
// it where loading decodes images); false: each batch loads when asked for (a cache's arrays are copies,
// and a loader thread beside the compute threads cost more than it hid: LeNet and the MLP trained 6-9 %
// faster from caches on 2 cores without it).
std::unique_ptr<nn::train::BatchSource> make_batch_source(
    std::shared_ptr<const nn::formats::datasets::DataSource> source, int64_t batch_size, bool shuffle,
    uint32_t seed, const std::string& name, const std::vector<int64_t>& blocks = {}, bool prefetch = true);

}  // namespace nncli
