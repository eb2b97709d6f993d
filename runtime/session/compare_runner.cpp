// `nncli compare_with_cpu` engine: the same parameters and first batch through two networks, every function's
// outputs (forward), input gradients (backward) and updated parameters compared pairwise.
#include "compare_runner.hpp"

#include <cmath>
#include <map>
#include <random>

#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/core/random.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/initializer.hpp"
#include "nn/solvers/solver.hpp"
#include "profile_runner.hpp"
#include "train_data.hpp"

namespace nncli::compare {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

using Capture = std::vector<std::pair<std::string, std::vector<float>>>;  // entry name -> values

double stddev(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= double(v.size());
  double sq = 0;
  for (double x : v) sq += (x - mean) * (x - mean);
  return std::sqrt(sq / double(v.size()));
}

Entry compare_values(const std::string& name, const std::vector<float>& a, const std::vector<float>& b,
                     const CompareSettings& s) {
  Entry e;
  e.name = name;
  if (a.size() != b.size()) {
    e.shape_mismatch = true;
    e.within_tolerance = false;
    e.norm_diff = 1.0;
    return e;
  }
  std::vector<double> da(a.begin(), a.end()), db(b.begin(), b.end()), diff(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    diff[i] = da[i] - db[i];
    const double ad = std::fabs(diff[i]);
    e.max_abs_diff = std::max(e.max_abs_diff, ad);
    if (!(ad <= s.atol + s.rtol * std::fabs(db[i])) && !(std::isnan(da[i]) && std::isnan(db[i])))
      e.within_tolerance = false;
  }
  e.std1 = stddev(da);
  e.std2 = stddev(db);
  e.diff_std = stddev(diff);
  const double denom = std::max(e.std1, e.std2);
  e.norm_diff = denom > 0 ? e.diff_std / denom : 0.0;
  return e;
}

// One side: a built network with its parameters, solver (training) and captured values.
struct Side {
  nn::ir::ParameterStore store;
  nn::ir::BuiltNetwork net;
  std::vector<nn::VariablePtr> roots;  // losses (training) or outputs
  std::unique_ptr<nn::Solver> solver;
  Capture forward, backward, update;
};

struct TargetSpec {
  const nn::ir::Network* network = nullptr;
  const std::vector<nn::ir::DataVariable>* data = nullptr;
  const std::vector<nn::ir::GeneratorVariable>* generators = nullptr;
  std::vector<std::string> roots;
  const nn::ir::Optimizer* optimizer = nullptr;  // null: inference
};

void build_side(Side& side, const nn::ir::Model& model, const TargetSpec& spec, const nn::Context& ctx,
                const CompareSettings& s) {
  side.store.load(model.parameters);
  nn::ir::BuildOptions bo;
  bo.batch_size = s.batch_size;
  bo.context = ctx;
  bo.training = spec.optimizer != nullptr;
  bo.seed = s.seed;
  side.net = nn::ir::build_network(*spec.network, side.store, bo);
  profile::name_function_nodes(*spec.network, side.net);
  for (const auto& r : spec.roots) side.roots.push_back(side.net.get(r));
  if (!spec.optimizer) return;
  nn::Solver::ParameterList list;
  for (const auto& [name, var] : side.store.ordered()) {
    var->set_need_grad(true);
    list.push_back({name, var});
  }
  for (nn::FunctionNode* node : nn::collect_functions(side.roots))
    for (const auto& out : node->outputs()) out->set_need_grad(node->need_grad());
  side.solver = nn::create_solver(spec.optimizer->solver.type, spec.optimizer->solver.params);
  side.solver->set_parameters(list);
}

std::string node_name(const nn::FunctionNode& node) {
  return node.name.empty() ? node.function().type() : node.name;
}

void run_side(Side& side, const TargetSpec& spec, const std::vector<std::vector<float>>& inputs, uint32_t seed) {
  for (size_t i = 0; i < spec.data->size(); ++i) {
    nn::VariablePtr v = side.net.get((*spec.data)[i].variable_name);
    NN_CHECK(int64_t(inputs[i].size()) == v->size()) << "data variable " << quoted(v->name()) << " needs "
                                                     << v->size() << " values, the batch has " << inputs[i].size();
    std::copy(inputs[i].begin(), inputs[i].end(), v->data()->cast<float>(true));
  }
  nn::RandomEngine rng(seed);
  for (const auto& g : *spec.generators)
    nn::initialize_parameter(g.type, g.multiplier, *side.net.get(g.variable_name)->data(), rng);
  nn::set_global_seed(seed);
  nn::forward_all(side.roots, false, false, nullptr, [&](const nn::FunctionNode& node) {
    for (const auto& out : node.outputs())
      side.forward.push_back(
          {"forward_function (" + node_name(node) + ", " + out->name() + ")", out->data()->to_vector()});
  });
  if (!side.solver) return;
  side.solver->zero_grad();
  for (const auto& root : side.roots)
    root->backward(nn::RootGrad::kOnes, false, nullptr, [&](const nn::FunctionNode& node) {
      for (const auto& in : node.inputs())
        if (in->need_grad() && in->has_grad())
          side.backward.push_back(
              {"backward_function (" + node_name(node) + ", " + in->name() + ")", in->grad()->to_vector()});
    });
  if (spec.optimizer->solver.weight_decay > 0) side.solver->weight_decay(spec.optimizer->solver.weight_decay);
  side.solver->update();
  for (const auto& [name, var] : side.store.ordered())
    side.update.push_back(
        {"update (" + spec.optimizer->solver.type + ", " + name + ")", var->data()->to_vector()});
}

// Pairs captured values by name (the first unused one of that name), in the first side's order.
void compare_captures(const Capture& a, const Capture& b, const CompareSettings& s, std::vector<Entry>& out) {
  std::multimap<std::string, size_t> by_name;
  for (size_t i = 0; i < b.size(); ++i) by_name.insert({b[i].first, i});
  for (size_t i = 0; i < a.size(); ++i) {
    auto it = by_name.find(a[i].first);
    if (it == by_name.end() && i < b.size()) {  // renamed by a conversion: same position
      out.push_back(compare_values(a[i].first, a[i].second, b[i].second, s));
      continue;
    }
    NN_CHECK(it != by_name.end()) << "the second model has no counterpart of " << a[i].first;
    out.push_back(compare_values(a[i].first, a[i].second, b[it->second].second, s));
    by_name.erase(it);
  }
}

std::vector<std::vector<float>> first_batch(const nn::ir::Model& model, const TargetSpec& spec, const Side& side,
                                            const CompareSettings& s, std::string& note) {
  std::vector<std::vector<float>> inputs;
  std::unique_ptr<nn::train::BatchSource> source;
  note = "random values of the declared shapes";
  if (spec.optimizer && !spec.optimizer->dataset_name.empty())
    for (size_t i = 0; i < model.datasets.size(); ++i)
      if (model.datasets[i].name == spec.optimizer->dataset_name.front()) {
        try {
          TrainDatasets datasets;
          source = datasets.open(model.datasets[i], int(i), side.net.batch_size);
          note = "the first batch of dataset " + quoted(model.datasets[i].name);
        } catch (const nn::Error& e) {
          note += " (dataset " + quoted(model.datasets[i].name) + " is unavailable: " + e.what() + ")";
        }
      }
  nn::train::Batch batch;
  if (source) batch = source->next();
  std::mt19937 rng(s.seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (const auto& dv : *spec.data) {
    const int col = source ? source->find_variable(dv.data_name) : -1;
    if (col >= 0) {
      inputs.push_back(batch.data[size_t(col)]);
      continue;
    }
    std::vector<float> values(size_t(side.net.get(dv.variable_name)->size()));
    for (float& x : values) x = u(rng);
    inputs.push_back(std::move(values));
  }
  return inputs;
}

TargetComparison compare_target(const nn::ir::Model& m1, const nn::ir::Model& m2, const TargetSpec& t1,
                                const TargetSpec& t2, const std::string& title, const CompareSettings& s) {
  TargetComparison result;
  result.title = title;
  Side a, b;
  nn::with_context("first model: " + title, [&] { build_side(a, m1, t1, s.context1, s); });
  nn::with_context("second model: " + title, [&] { build_side(b, m2, t2, s.context2, s); });
  const auto inputs = first_batch(m1, t1, a, s, result.data_note);
  nn::with_context("first model: " + title, [&] { run_side(a, t1, inputs, s.seed); });
  nn::with_context("second model: " + title, [&] { run_side(b, t2, inputs, s.seed); });
  compare_captures(a.forward, b.forward, s, result.entries);
  compare_captures(a.backward, b.backward, s, result.entries);
  compare_captures(a.update, b.update, s, result.entries);
  return result;
}

const nn::ir::Network& network_of(const nn::ir::Model& m, const std::string& name, const std::string& owner) {
  const nn::ir::Network* n = m.find_network(name);
  NN_CHECK(n) << owner << ": network " << quoted(name) << " not found";
  return *n;
}

}  // namespace

std::vector<TargetComparison> compare_models(const nn::ir::Model& first, nn::ir::Model second,
                                             const CompareSettings& s) {
  // The second model runs on the first model's parameters (names present in both, plus missing ones).
  for (const auto& p : first.parameters) {
    auto it = std::find_if(second.parameters.begin(), second.parameters.end(),
                           [&](const nn::ir::Parameter& q) { return q.name == p.name; });
    if (it == second.parameters.end())
      second.parameters.push_back(p);
    else
      *it = p;
  }
  std::vector<TargetComparison> out;
  if (!first.optimizers.empty()) {
    for (size_t i = 0; i < first.optimizers.size(); ++i) {
      const auto& o1 = first.optimizers[i];
      const nn::ir::Optimizer* o2 = nullptr;
      for (const auto& o : second.optimizers)
        if (o.name == o1.name) o2 = &o;
      if (!o2 && i < second.optimizers.size()) o2 = &second.optimizers[i];
      NN_CHECK(o2) << "the second model has no optimizer " << quoted(o1.name);
      auto spec = [&](const nn::ir::Model& m, const nn::ir::Optimizer& o) {
        TargetSpec t{&network_of(m, o.network_name, "optimizer " + quoted(o.name)),
                     &o.data_variable,
                     &o.generator_variable,
                     {},
                     &o};
        for (const auto& l : o.loss_variable) t.roots.push_back(l.variable_name);
        return t;
      };
      out.push_back(compare_target(first, second, spec(first, o1), spec(second, *o2),
                                   "optimizer '" + o1.name + "' with network '" + o1.network_name + "'", s));
    }
    return out;
  }
  NN_CHECK(!first.executors.empty()) << "the first model has neither an optimizer nor an executor";
  for (size_t i = 0; i < first.executors.size(); ++i) {
    const auto& e1 = first.executors[i];
    const nn::ir::Executor* e2 = second.find_executor(e1.name);
    if (!e2 && i < second.executors.size()) e2 = &second.executors[i];
    NN_CHECK(e2) << "the second model has no executor " << quoted(e1.name);
    auto spec = [&](const nn::ir::Model& m, const nn::ir::Executor& e) {
      TargetSpec t{&network_of(m, e.network_name, "executor " + quoted(e.name)),
                   &e.data_variable,
                   &e.generator_variable,
                   {},
                   nullptr};
      for (const auto& ov : e.output_variable) t.roots.push_back(ov.variable_name);
      return t;
    };
    out.push_back(compare_target(first, second, spec(first, e1), spec(second, *e2),
                                 "executor '" + e1.name + "' with network '" + e1.network_name + "'", s));
  }
  return out;
}

}  // namespace nncli::compare
