// Trainer on a small in-memory regression model: SGD step against a double reference, frozen parameters,
// update_interval, exact continuation from a saved state, monitors and configuration errors.
#include "nn/train/trainer.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "nn/core/error.hpp"
#include "nn/core/random.hpp"
#include "train/feed.hpp"

namespace {

using nn::train::Batch;

// 8 samples of x (3 values) and y (1 value), served in order.
class VectorSource : public nn::train::BatchSource {
 public:
  explicit VectorSource(int64_t batch) : batch_(batch) {}
  const std::vector<std::string>& variables() const override { return names_; }
  int64_t size() const override { return 8; }
  int64_t batch_size() const override { return batch_; }
  int64_t position() const override { return position_; }
  void seek(int64_t n) override { position_ = n; }
  Batch next() override {
    Batch b;
    b.shapes = {{batch_, 3}, {batch_, 1}};
    b.data.resize(2);
    for (int64_t k = 0; k < batch_; ++k) {
      const int64_t i = (position_ * batch_ + k) % 8;
      for (int j = 0; j < 3; ++j) b.data[0].push_back(x(i, j));
      b.data[1].push_back(y(i));
    }
    ++position_;
    return b;
  }
  static float x(int64_t i, int j) { return float(0.25 * double(i) - 0.5 * j + 0.125 * double(i * j % 3)); }
  static float y(int64_t i) { return float(0.5 * double(i) - 1.0); }

 private:
  std::vector<std::string> names_{"x", "y"};
  int64_t batch_;
  int64_t position_ = 0;
};

nn::ir::Variable var(const std::string& name, const std::string& type, nn::Shape shape) {
  nn::ir::Variable v;
  v.name = name;
  v.type = type;
  v.shape = std::move(shape);
  return v;
}

nn::ir::Function fn(const std::string& type, std::vector<std::string> in, std::vector<std::string> out) {
  nn::ir::Function f;
  f.name = type;
  f.type = type;
  f.inputs = std::move(in);
  f.outputs = std::move(out);
  return f;
}

// h = Affine(x + noise, W, b); loss = SquaredError(h, y); noise from a Uniform generator (multiplier m).
nn::ir::Model regression_model(const std::string& solver, int64_t max_epoch, double noise) {
  nn::ir::Model m;
  m.training_config = nn::ir::TrainingConfig{max_epoch, 2, false, 1};
  nn::ir::Network n;
  n.name = "Main";
  n.batch_size = 4;
  n.variables = {var("x", "Buffer", {-1, 3}),  var("y", "Buffer", {-1, 1}),   var("noise", "Buffer", {-1, 3}),
                 var("xn", "Buffer", {-1, 3}), var("W", "Parameter", {3, 1}), var("b", "Parameter", {1}),
                 var("h", "Buffer", {-1, 1}),  var("loss", "Buffer", {-1, 1})};
  n.functions = {fn("Add2", {"x", "noise"}, {"xn"}), fn("Affine", {"xn", "W", "b"}, {"h"}),
                 fn("SquaredError", {"h", "y"}, {"loss"})};
  n.functions[1].attrs.set("base_axis", int64_t(1));
  m.networks.push_back(n);
  nn::ir::Dataset d;
  d.name = "D";
  d.uri = "memory";
  d.batch_size = 4;
  m.datasets.push_back(d);
  nn::ir::Optimizer o;
  o.name = "Opt";
  o.network_name = "Main";
  o.dataset_name = {"D"};
  o.solver.type = solver;
  o.solver.params.set(solver == "Sgd" ? "lr" : "alpha", 0.1);
  o.update_interval = 1;
  o.data_variable = {{"x", "x"}, {"y", "y"}};
  o.generator_variable = {{"noise", noise > 0 ? "Uniform" : "Constant", noise}};
  o.loss_variable = {{"loss"}};
  o.parameter_variable = {{"W", 1.0}, {"b", 1.0}};
  m.optimizers.push_back(o);
  nn::ir::Monitor mon;
  mon.name = "train_error";
  mon.network_name = "Main";
  mon.dataset_name = {"D"};
  mon.data_variable = o.data_variable;
  mon.generator_variable = {{"noise", "Constant", 0.0}};
  mon.monitor_variable = {{"loss", "", "", 1.0}};
  m.monitors.push_back(mon);
  return m;
}

std::vector<nn::ir::Parameter> initial_parameters() {
  return {{"W", {3, 1}, {0.1f, -0.2f, 0.3f}, true}, {"b", {1}, {0.05f}, true}};
}

nn::train::BatchSourceFactory memory_factory() {
  return [](const nn::ir::Dataset&, int, int64_t batch) { return std::make_unique<VectorSource>(batch); };
}

std::vector<float> values(nn::ir::ParameterStore& store, const std::string& name) {
  return store.find(name)->data()->to_vector();
}

struct StopAfter : nn::train::TrainerHooks {
  explicit StopAfter(int64_t n) : n_(n) {}
  void on_iteration(int64_t it) override { done_ = it + 1; }
  bool stop_requested() override { return done_ >= n_; }
  int64_t n_, done_ = 0;
};

}  // namespace

TEST(Trainer, OneSgdStepMatchesDoubleReference) {
  nn::ir::Model model = regression_model("Sgd", 1, 0.0);
  nn::ir::ParameterStore store;
  store.load(initial_parameters());
  nn::train::Trainer trainer(model, store, memory_factory(), {});
  const double cost = trainer.update(0);
  double w[3] = {0.1f, -0.2f, 0.3f}, b = 0.05f, gw[3] = {0, 0, 0}, gb = 0, ref_cost = 0;
  for (int i = 0; i < 4; ++i) {
    double h = b;
    for (int j = 0; j < 3; ++j) h += double(VectorSource::x(i, j)) * w[j];
    const double r = h - double(VectorSource::y(i));
    ref_cost += r * r / 4;
    for (int j = 0; j < 3; ++j) gw[j] += 2 * r / 4 * double(VectorSource::x(i, j));
    gb += 2 * r / 4;
  }
  EXPECT_NEAR(cost, ref_cost, 1e-5 * std::fabs(ref_cost));
  const auto W = values(store, "W");
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(W[size_t(j)], w[j] - 0.1 * gw[j], 1e-6) << j;
  EXPECT_NEAR(values(store, "b")[0], b - 0.1 * gb, 1e-6);
}

TEST(Trainer, ZeroMultiplierFreezesAParameter) {
  nn::ir::Model model = regression_model("Sgd", 1, 0.0);
  model.optimizers[0].parameter_variable = {{"W", 1.0}, {"b", 0.0}};
  nn::ir::ParameterStore store;
  store.load(initial_parameters());
  nn::train::Trainer trainer(model, store, memory_factory(), {});
  EXPECT_EQ(trainer.solver(0).num_parameters(), 1u);
  trainer.update(0);
  EXPECT_EQ(values(store, "b")[0], 0.05f);
  EXPECT_NE(values(store, "W")[0], 0.1f);
}

TEST(Trainer, UpdateIntervalAccumulatesGradients) {
  nn::ir::Model model = regression_model("Sgd", 1, 0.0);
  model.optimizers[0].update_interval = 2;
  nn::ir::ParameterStore store;
  store.load(initial_parameters());
  nn::train::Trainer trainer(model, store, memory_factory(), {});
  trainer.update(0);
  EXPECT_EQ(values(store, "W")[0], 0.1f);  // no update after the first of two iterations
  trainer.update(1);
  EXPECT_NE(values(store, "W")[0], 0.1f);
}

TEST(Trainer, StartAndEndIterLimitTheOptimizer) {
  nn::ir::Model model = regression_model("Sgd", 1, 0.0);
  model.optimizers[0].start_iter = 2;  // 1-based: active from the second iteration
  nn::ir::ParameterStore store;
  store.load(initial_parameters());
  nn::train::Trainer trainer(model, store, memory_factory(), {});
  EXPECT_EQ(trainer.update(0), 0.0);
  EXPECT_EQ(values(store, "W")[0], 0.1f);
  EXPECT_GT(trainer.update(1), 0.0);
}

TEST(Trainer, ContinuesExactlyFromASavedState) {
  // Uninterrupted: 2 epochs of 2 iterations with Adam and a random generator.
  nn::ir::Model model = regression_model("Adam", 3, 0.1);
  nn::set_global_seed(7);
  nn::ir::ParameterStore full;
  full.load(initial_parameters());
  nn::train::Trainer a(model, full, memory_factory(), {});
  nn::train::TrainerHooks none;
  ASSERT_EQ(a.run(none), nn::train::TrainOutcome::kCompleted);

  // Interrupted after 3 iterations (mid-epoch), then continued by a new trainer from the saved state.
  nn::set_global_seed(7);
  nn::ir::ParameterStore first;
  first.load(initial_parameters());
  nn::train::Trainer b(model, first, memory_factory(), {});
  StopAfter stop(3);
  ASSERT_EQ(b.run(stop), nn::train::TrainOutcome::kInterrupted);
  const nn::train::TrainState state = b.state();
  EXPECT_EQ(state.iteration, 3);
  std::vector<std::pair<std::string, nn::SolverState>> states;
  for (auto& [name, s] : b.solver(0).get_states()) {
    nn::SolverState copy;
    copy.t = s.t;
    for (auto& [k, arr] : s.pstate) copy.pstate[k] = arr->copy();
    states.push_back({name, copy});
  }
  nn::set_global_seed(12345);  // must be overwritten by restore()
  nn::ir::ParameterStore second;
  second.load(first.to_ir());
  nn::train::Trainer c(model, second, memory_factory(), {});
  c.solver(0).set_states(states);
  c.restore(state);
  ASSERT_EQ(c.run(none), nn::train::TrainOutcome::kCompleted);
  EXPECT_EQ(values(second, "W"), values(full, "W"));
  EXPECT_EQ(values(second, "b"), values(full, "b"));
}

TEST(Trainer, MonitorAveragesTheMeanOverBatches) {
  nn::ir::Model model = regression_model("Sgd", 1, 0.0);
  nn::ir::ParameterStore store;
  store.load(initial_parameters());
  nn::train::Trainer trainer(model, store, memory_factory(), {});
  nn::train::TrainerHooks none;
  auto result = trainer.evaluate(none);
  ASSERT_EQ(result.size(), 1u);
  double ref = 0;
  for (int i = 0; i < 8; ++i) {
    double h = 0.05f + VectorSource::x(i, 0) * 0.1f + VectorSource::x(i, 1) * -0.2f + VectorSource::x(i, 2) * 0.3f;
    ref += (h - VectorSource::y(i)) * (h - VectorSource::y(i)) / 8;
  }
  EXPECT_EQ(result[0].first, "train_error");
  EXPECT_NEAR(result[0].second, ref, 1e-5 * ref);
}

TEST(Trainer, NamesMissingNetworksDatasetsAndSolvers) {
  auto message = [](nn::ir::Model m) -> std::string {
    nn::ir::ParameterStore store;
    try {
      nn::train::Trainer t(m, store, memory_factory(), {});
    } catch (const nn::Error& e) {
      return e.what();
    }
    return "no error";
  };
  nn::ir::Model m = regression_model("Sgd", 1, 0.0);
  m.optimizers[0].network_name = "Nope";
  EXPECT_EQ(message(m), "optimizer 'Opt': network 'Nope' is not defined (networks: 'Main')");
  m = regression_model("Sgd", 1, 0.0);
  m.optimizers[0].dataset_name = {"Gone"};
  EXPECT_EQ(message(m), "optimizer 'Opt': dataset 'Gone' is not defined (datasets: 'D')");
  m = regression_model("Lamb", 1, 0.0);
  EXPECT_EQ(message(m), "optimizer 'Opt': Solver \"Lamb\" is not supported.");
  m = regression_model("Sgd", 1, 0.0);
  m.optimizers[0].data_variable[0].data_name = "z";
  EXPECT_EQ(message(m), "Variable \"z\" is not found in dataset \"D\", optimizer 'Opt'");
}

TEST(TrainFeed, BroadcastsDataAndRejectsMismatches) {
  nn::Variable v({2, 3});
  const float row[3] = {1, 2, 3};
  nn::train::detail::copy_into_variable(v, {1, 3}, row, "d", "v");
  EXPECT_EQ(v.data()->to_vector(), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  const float four[4] = {1, 2, 3, 4};
  try {
    nn::train::detail::copy_into_variable(v, {4}, four, "d", "v");
    FAIL() << "no error";
  } catch (const nn::Error& e) {
    EXPECT_STREQ(e.what(), "Shape does not match between data \"d\" and variable \"v\" ((4,) != (2, 3)).");
  }
}

TEST(SaveThrottle, FirstAlwaysThenEveryElevenEpochsOrWhenForced) {
  nn::train::SaveThrottle t;
  EXPECT_TRUE(t.should_save(1, false, false));
  t.saved(1);
  EXPECT_FALSE(t.should_save(2, false, false));
  EXPECT_TRUE(t.should_save(2, true, false));
  EXPECT_FALSE(t.should_save(11, false, false));
  EXPECT_TRUE(t.should_save(12, false, false));
  EXPECT_FALSE(t.should_save(12, false, true));
}

TEST(Trainer, StopsWhenTheCostIsNotFinite) {
  nn::ir::Model model = regression_model("Sgd", 3, 0.0);
  model.optimizers[0].solver.params.set("lr", 1e30);
  nn::ir::ParameterStore store;
  store.load(initial_parameters());
  nn::train::Trainer trainer(model, store, memory_factory(), {});
  nn::train::TrainerHooks none;
  EXPECT_EQ(trainer.run(none), nn::train::TrainOutcome::kNanStopped);
  EXPECT_LT(trainer.state().iteration, trainer.max_iter());
}
