// MonitorSet: per-epoch evaluation of the model's monitors (docs/command_line.md#train-evaluation).
#include "nn/train/monitor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/graph/grad_mode.hpp"
#include "train/feed.hpp"

namespace nn::train {

struct MonitorSet::Entry {
  const ir::Monitor* monitor = nullptr;
  std::shared_ptr<ir::BuiltNetwork> network;
  std::vector<std::string> datasets;
  std::vector<detail::DataBinding> data;
  std::vector<detail::IndexCheck> index_checks;
  std::vector<detail::GeneratorBinding> generators;
  std::vector<VariablePtr> outputs;
  int64_t batches = 0;
};

namespace {
std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

const ir::Dataset& find_dataset(const ir::Model& model, const std::string& name, const std::string& owner,
                                int* index) {
  for (size_t i = 0; i < model.datasets.size(); ++i)
    if (model.datasets[i].name == name) {
      *index = int(i);
      return model.datasets[i];
    }
  std::string known;
  for (const auto& d : model.datasets) known += (known.empty() ? "" : ", ") + in_quotes(d.name);
  NN_FAIL(ErrorCode::kInvalid) << owner << ": dataset " << in_quotes(name)
                               << " is not defined (datasets: " << (known.empty() ? "none" : known) << ")";
}
}  // namespace

MonitorSet::MonitorSet(const ir::Model& model, ir::ParameterStore& params, const BatchSourceFactory& open_dataset,
                       const nn::Context& context, uint32_t seed, Communicator* communicator)
    : communicator_(communicator) {
  // Networks are shared by monitors that use the same network at the same batch size.
  std::map<std::pair<std::string, int64_t>, std::shared_ptr<ir::BuiltNetwork>> built;
  for (const auto& m : model.monitors) {
    const std::string owner = "monitor " + in_quotes(m.name);
    auto e = std::make_unique<Entry>();
    e->monitor = &m;
    const ir::Network* net = model.find_network(m.network_name);
    NN_CHECK(net != nullptr) << owner << ": network " << in_quotes(m.network_name) << " is not defined";
    NN_CHECK(!m.dataset_name.empty()) << owner << ": no dataset";
    int64_t max_size = 0, max_batch = 0, batch_size = 0;
    std::vector<std::pair<std::string, const BatchSource*>> sources;
    for (const auto& ds_name : m.dataset_name) {
      int index = 0;
      const ir::Dataset& ds = find_dataset(model, ds_name, owner, &index);
      auto& source = sources_[ds_name];
      if (!source) source = open_dataset(ds, index, ds.batch_size > 0 ? ds.batch_size : net->batch_size);
      if (batch_size == 0) batch_size = source->batch_size();
      max_size = std::max(max_size, source->size());
      max_batch = std::max(max_batch, source->batch_size());
      sources.push_back({ds_name, source.get()});
      e->datasets.push_back(ds_name);
    }
    e->batches = max_batch > 0 ? max_size / max_batch : 0;
    // Whole batches only (upstream's rule): a dataset smaller than its batch would report an error of 0.
    NN_CHECK(e->batches > 0 || (communicator_ && communicator_->distributed()))
        << owner << ": dataset " << in_quotes(m.dataset_name.front()) << " has " << max_size
        << " samples, fewer than its batch size " << max_batch << ": nothing to evaluate";
    auto& network = built[{m.network_name, batch_size}];
    if (!network) {
      ir::BuildOptions bo;
      bo.batch_size = batch_size;
      bo.context = context;
      bo.training = true;
      bo.seed = seed;
      network = std::make_shared<ir::BuiltNetwork>(
          with_context(owner, [&] { return ir::build_network(*net, params, bo); }));
    }
    e->network = network;
    e->data = detail::bind_data(m.data_variable, *network, sources, owner);
    e->generators = with_context(owner, [&] { return detail::bind_generators(m.generator_variable, *network); });
    for (const auto& mv : m.monitor_variable)
      e->outputs.push_back(with_context(owner, [&] { return network->get(mv.variable_name); }));
    e->index_checks = detail::bind_index_checks(e->data, e->outputs);
    monitors_.push_back(std::move(e));
  }
}

MonitorSet::~MonitorSet() = default;

size_t MonitorSet::size() const { return monitors_.size(); }

std::vector<std::pair<std::string, double>> MonitorSet::evaluate(const Progress& progress, int64_t it,
                                                                 int64_t iter_per_epoch, int64_t max_epoch) {
  std::vector<std::pair<std::string, double>> results;
  detail::IterationInfo info{it, iter_per_epoch, max_epoch};
  NoGradScope no_grad;  // evaluation only runs forward: kernels skip what a backward would read (argmax)
  for (auto& e : monitors_) {
    double sum = 0.0;
    for (int64_t b = 0; b < e->batches; ++b) {
      std::vector<Batch> batches;
      batches.reserve(e->datasets.size());
      for (const auto& ds : e->datasets) batches.push_back(sources_.at(ds)->next());
      std::vector<std::pair<std::string, const Batch*>> named;
      for (size_t i = 0; i < batches.size(); ++i) named.push_back({e->datasets[i], &batches[i]});
      detail::assign_data(e->data, named, info);
      detail::check_indices(e->index_checks, e->data, named);
      detail::fill_generators(e->generators);
      forward_all(e->outputs, true, false);
      for (auto& v : e->outputs) sum += detail::mean_value(*v);
      if (progress) {
        char text[64];
        std::snprintf(text, sizeof(text), "%0.6f", sum / double(b + 1));
        progress("Evaluating \"" + e->monitor->name + "\" : error=" + text, double(b + 1) / double(e->batches));
      }
    }
    double count = double(e->batches);
    if (communicator_ && communicator_->distributed()) {  // upstream: sums all-reduced, counts times W
      sum = communicator_->all_reduce_sum(sum);
      count *= double(communicator_->size());
    }
    double error = count > 0 ? sum / count : 0.0;
    if (!std::isfinite(error)) {
      NN_LOG_WARNING << "Validation error is Nan";
      error = 0.0;
    }
    results.push_back({e->monitor->name, error});
  }
  return results;
}

std::map<std::string, int64_t> MonitorSet::positions() const {
  std::map<std::string, int64_t> out;
  for (const auto& [name, source] : sources_) out[name] = source->position();
  return out;
}

void MonitorSet::seek(const std::map<std::string, int64_t>& positions, int64_t evaluations) {
  int64_t batches_per_evaluation = 0;
  for (const auto& e : monitors_) batches_per_evaluation += e->batches;
  for (const auto& [name, pos] : positions)
    NN_CHECK(pos >= 0 && pos <= evaluations * batches_per_evaluation)
        << "checkpoint: monitor dataset " << in_quotes(name) << " position " << pos << " is impossible after "
        << evaluations << " evaluations";
  for (const auto& [name, pos] : positions) {
    auto it = sources_.find(name);
    if (it != sources_.end()) it->second->seek(pos);
  }
}

}  // namespace nn::train
