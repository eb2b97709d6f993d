// BatchSplit: the sub-batch choice, the instances and the chunked forward.
#include "batch_split.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <map>

#include "formats/passes/batch_size.hpp"
#include "formats/passes/batch_split.hpp"
#include "nn/core/error.hpp"
#include "nn/core/first_exception.hpp"
#include "nn/core/log.hpp"
#include "nn/graph/grad_mode.hpp"

namespace nncli {
namespace {

// A chunk should hold at least this many activation elements (1 MiB of floats): below it a pass's fixed
// cost per function (LeNet's are microseconds) outweighs what running chunks apart saves. Above it the
// smallest chunk wins: at batch 32 on two threads, chunks of 1, 2, 4 and 8 images took 60, 60, 61, 72 ms
// (MobileNetV2), 118, 115, 134, 135 (EfficientNet-B0) and 52, 57, 61, 69 (SqueezeNet), against 75, 137
// and 70 for the whole batch; ResNet-18 took 230-242 ms either way.
constexpr double kMinChunkElements = 256.0 * 1024;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

int64_t choose_sub_batch(int64_t batch, int threads, double sample_elements) {
  if (const char* v = std::getenv("NN_BATCH_SPLIT"); v && *v) {
    const long long asked = std::atoll(v);
    return asked > 0 && asked < batch && batch % asked == 0 ? asked : 0;
  }
  if (threads < 2 || batch < 2) return 0;
  const double least = std::ceil(kMinChunkElements / std::max(sample_elements, 1.0));
  for (int64_t d = 1; batch / d >= threads; ++d)
    if (batch % d == 0 && double(d) >= least) return d;
  return 0;
}

std::unique_ptr<BatchSplit> BatchSplit::make(const nn::ir::Network& network, const nn::ir::BuiltNetwork& whole,
                                             nn::ir::ParameterStore& params, const nn::ir::BuildOptions& options,
                                             const std::vector<std::string>& inputs,
                                             const std::vector<std::string>& outputs) {
  if (options.training || !options.context.is_cpu_only() || options.context.uses_half() || inputs.empty())
    return nullptr;
  std::map<std::string, nn::Shape> shapes;
  for (const auto& [name, var] : whole.variables) shapes[name] = var->shape();
  // The batch is the inputs' first axis (a file with fixed shapes, as most ONNX files, declares no batch).
  auto first_input = shapes.find(inputs.front());
  const int64_t batch = first_input == shapes.end() || first_input->second.empty() ? 0 : first_input->second[0];
  double activations = 0;
  for (const auto& v : network.variables) {
    auto it = shapes.find(v.name);
    if (it != shapes.end() && v.type != "Parameter") activations += double(nn::shape_size(it->second));
  }
  const int threads = omp_get_max_threads();
  const int64_t sub = choose_sub_batch(batch, threads, activations / double(std::max<int64_t>(batch, 1)));
  if (sub == 0) return nullptr;
  const std::string where = "network " + quoted(network.name) + ": batch " + std::to_string(batch);
  const nn::ir::Network concrete = nn::formats::set_batch_size(network, batch);
  std::string why;
  auto part = nn::formats::rebatch_for_split({&concrete, &shapes, inputs, outputs, batch}, sub, &why);
  if (!part) {
    NN_LOG_VERBOSE << where << " runs whole: " << why;
    return nullptr;
  }
  std::unique_ptr<BatchSplit> split(new BatchSplit);
  split->sub_batch_ = sub;
  split->chunks_ = batch / sub;
  nn::ir::BuildOptions part_options = options;
  part_options.batch_size = sub;
  try {
    for (int t = 0; t < threads; ++t) {
      Instance inst;
      inst.network = nn::ir::build_network(*part, params, part_options);
      for (const auto& name : inputs) inst.inputs.push_back(inst.network.get(name));
      for (const auto& name : outputs) inst.outputs.push_back(inst.network.get(name));
      split->instances_.push_back(std::move(inst));
    }
  } catch (const nn::Error& e) {  // a rule let through what the builder refuses at the sub-batch: run whole
    NN_LOG_VERBOSE << where << " runs whole: the network does not build at batch " << sub << " (" << e.what()
                   << ")";
    return nullptr;
  }
  const Instance& first = split->instances_.front();
  auto whole_vars = [&](const std::vector<std::string>& names, const std::vector<nn::VariablePtr>& part_vars,
                        std::vector<nn::VariablePtr>& into) {
    for (size_t i = 0; i < names.size(); ++i) {
      into.push_back(whole.get(names[i]));
      if (into.back()->size() != part_vars[i]->size() * split->chunks_) return false;
    }
    return true;
  };
  if (!whole_vars(inputs, first.inputs, split->whole_inputs_) ||
      !whole_vars(outputs, first.outputs, split->whole_outputs_)) {
    NN_LOG_VERBOSE << where << " runs whole: a variable's size is not proportional to the batch";
    return nullptr;
  }
  NN_LOG_VERBOSE << where << " runs as " << split->chunks_ << " chunks of " << sub << " on " << threads
                 << " threads";
  return split;
}

std::unique_ptr<BatchSplit> BatchSplit::for_executor(
    const nn::ir::Executor& executor, const nn::ir::Network& network, const nn::ir::BuiltNetwork& whole,
    nn::ir::ParameterStore& params, const nn::ir::BuildOptions& options, const std::vector<std::string>& outputs) {
  if (!executor.generator_variable.empty()) return nullptr;
  std::vector<std::string> inputs;
  for (const auto& d : executor.data_variable) inputs.push_back(d.variable_name);
  return make(network, whole, params, options, inputs, outputs);
}

void BatchSplit::run_chunk(Instance& inst, int64_t chunk, const nn::FunctionHook& pre,
                           const nn::FunctionHook& post) {
  for (size_t i = 0; i < inst.inputs.size(); ++i) {
    const int64_t n = inst.inputs[i]->size();
    const float* src = in_data_[i] + chunk * n;
    std::copy(src, src + n, inst.inputs[i]->data()->cast<float>(true));
  }
  nn::forward_all(inst.outputs, /*clear_buffer=*/true, false, pre, post);
  for (size_t o = 0; o < inst.outputs.size(); ++o) {
    const int64_t n = inst.outputs[o]->size();
    const float* y = inst.outputs[o]->data()->get<float>();
    std::copy(y, y + n, out_data_[o] + chunk * n);
  }
}

void BatchSplit::forward(const Hooks& hooks) {
  in_data_.clear();
  for (auto& v : whole_inputs_) in_data_.push_back(v->data()->get<float>());
  out_data_.clear();
  for (auto& v : whole_outputs_) out_data_.push_back(v->data()->cast<float>(true));
  std::atomic<int64_t> next{0};
  nn::FirstException error;
#pragma omp parallel num_threads(threads())
  {
    Instance& inst = instances_[size_t(omp_get_thread_num())];
    error.run([&] {
      nn::NoGradScope no_grad;
      nn::FunctionHook pre, post;
      if (hooks) std::tie(pre, post) = hooks(omp_get_thread_num());
      if (!inst.warm) {
        // Each instance's first chunk runs alone: the shared parameters' cached copies (layouts, reordered
        // weights) are made once, never by two threads at a time.
#pragma omp critical(nncli_batch_split_first_pass)
        error.run([&] {
          if (const int64_t c = next.fetch_add(1); c < chunks_) run_chunk(inst, c, pre, post);
        });
        inst.warm = true;
      }
      for (int64_t c; (c = next.fetch_add(1)) < chunks_;) run_chunk(inst, c, pre, post);
    });
  }
  error.rethrow();
}

}  // namespace nncli
