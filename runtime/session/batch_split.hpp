// Inference of a batch as independent sub-batches: one instance of the network per thread, built for the
// sub-batch and sharing the parameters, takes chunks of the batch in turn. No thread ever waits for another
// inside the pass, and each chunk's activations stay in that core's caches.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"

namespace nncli {

// The sub-batch for `batch` samples on `threads` threads, or 0 for no split: the smallest divisor of the
// batch whose chunks hold enough work to outweigh a pass's per-function costs (`sample_elements`: activation
// elements per sample) and still give every thread a chunk. NN_BATCH_SPLIT=0 turns splitting off;
// NN_BATCH_SPLIT=k asks for sub-batches of k samples.
int64_t choose_sub_batch(int64_t batch, int threads, double sample_elements);

class BatchSplit {
 public:
  // The split of `whole` (built from `network` for inference on a CPU float context), or null when it does
  // not pay or some function mixes samples (the reason is logged at -v).
  static std::unique_ptr<BatchSplit> make(const nn::ir::Network& network, const nn::ir::BuiltNetwork& whole,
                                          nn::ir::ParameterStore& params, const nn::ir::BuildOptions& options,
                                          const std::vector<std::string>& inputs,
                                          const std::vector<std::string>& outputs);

  // The split of an executor's network: its data variables in, `outputs` out. Null also when the executor has
  // generator variables (their values are drawn for the whole batch).
  static std::unique_ptr<BatchSplit> for_executor(const nn::ir::Executor& executor, const nn::ir::Network& network,
                                                  const nn::ir::BuiltNetwork& whole,
                                                  nn::ir::ParameterStore& params,
                                                  const nn::ir::BuildOptions& options,
                                                  const std::vector<std::string>& outputs);

  // Hooks around each function of instance i (called on the thread running it).
  using Hooks = std::function<std::pair<nn::FunctionHook, nn::FunctionHook>(int instance)>;
  // The whole network's forward: reads its input variables and writes its output variables, gradients off.
  void forward(const Hooks& hooks = {});

  int64_t sub_batch() const { return sub_batch_; }
  int64_t chunks() const { return chunks_; }
  int threads() const { return int(instances_.size()); }
  const nn::ir::BuiltNetwork& instance(int i) const { return instances_[size_t(i)].network; }

 private:
  struct Instance {
    nn::ir::BuiltNetwork network;
    std::vector<nn::VariablePtr> inputs, outputs;
    bool warm = false;  // has run once (its functions made their kernels and cached copies)
  };
  void run_chunk(Instance& instance, int64_t chunk, const nn::FunctionHook& pre, const nn::FunctionHook& post);

  std::vector<Instance> instances_;
  std::vector<nn::VariablePtr> whole_inputs_, whole_outputs_;
  std::vector<const float*> in_data_;  // the whole inputs' plain data, read chunk by chunk
  std::vector<float*> out_data_;       // the whole outputs' plain data, written chunk by chunk
  int64_t sub_batch_ = 0, chunks_ = 0;
};

}  // namespace nncli
