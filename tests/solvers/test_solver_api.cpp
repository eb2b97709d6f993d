// Solver API: factory and defaults, gradient utilities, learning rate, parameters and state round trips.
#include <cmath>
#include <limits>
#include <map>

#include "solver_test_util.hpp"

namespace nn::test {
namespace {

TEST(SolverFactory, EverySupportedTypeIsCreatedWithItsName) {
  const auto types = supported_solvers();
  EXPECT_EQ(types.size(), 18u);
  for (const auto& type : types) {
    auto s = create_solver(type);
    ASSERT_TRUE(s) << type;
    EXPECT_EQ(s->type(), type);
    EXPECT_EQ(s->info().type, type);
  }
}

TEST(SolverFactory, SgdAliasAndUnknownType) {
  EXPECT_EQ(create_solver("SGD")->type(), "Sgd");
  try {
    create_solver("Foo");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("solver 'Foo' is not supported (supported: Sgd, SgdW,"),
              std::string::npos)
        << e.what();
  }
}

TEST(SolverFactory, DefaultsAreNnablaApiDefaults) {
  const std::map<std::string, std::map<std::string, double>> defaults = {
      {"Sgd", {{"lr", 1e-3}}},
      {"SgdW", {{"lr", 1e-3}, {"momentum", 0.9}, {"wd", 1e-4}}},
      {"Momentum", {{"lr", 1e-3}, {"momentum", 0.9}}},
      {"Lars", {{"lr", 1e-3}, {"momentum", 0.9}, {"coefficient", 1e-3}, {"eps", 1e-6}}},
      {"Nesterov", {{"lr", 1e-3}, {"momentum", 0.9}}},
      {"Adadelta", {{"lr", 1.0}, {"decay", 0.95}, {"eps", 1e-6}}},
      {"Adagrad", {{"lr", 1e-2}, {"eps", 1e-8}}},
      {"AdaBelief", {{"alpha", 1e-3}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"wd", 0.0}}},
      {"RMSprop", {{"lr", 1e-3}, {"decay", 0.9}, {"eps", 1e-8}}},
      {"RMSpropGraves", {{"lr", 1e-4}, {"decay", 0.95}, {"momentum", 0.9}, {"eps", 1e-4}}},
      {"Adam", {{"alpha", 1e-3}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}}},
      {"AdamW", {{"alpha", 1e-3}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"wd", 1e-4}}},
      {"AdaBound",
       {{"alpha", 1e-3}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"final_lr", 0.1}, {"gamma", 1e-3}}},
      {"Adamax", {{"alpha", 2e-3}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}}},
      {"AMSGRAD", {{"alpha", 1e-3}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}}},
      {"AMSBound",
       {{"alpha", 1e-3}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"final_lr", 0.1}, {"gamma", 1e-3}}},
      {"Lamb",
       {{"eta", 1e-3}, {"beta1", 0.9}, {"beta2", 0.999}, {"gamma_l", 0.0}, {"gamma_u", 10.0}, {"eps", 1e-6}}},
      {"Lion", {{"lr", 1e-4}, {"beta1", 0.9}, {"beta2", 0.99}}},
  };
  ASSERT_EQ(defaults.size(), supported_solvers().size());
  for (const auto& [type, fields] : defaults) {
    auto s = create_solver(type);
    const Attrs params = s->info().params;
    for (const auto& [field, value] : fields) {
      ASSERT_TRUE(params.has(field)) << type << "." << field;
      EXPECT_EQ(float(params.get_float(field, -1)), float(value)) << type << "." << field;
    }
    const char* lr_field = fields.count("alpha") ? "alpha" : fields.count("eta") ? "eta" : "lr";
    EXPECT_EQ(float(s->learning_rate()), float(fields.at(lr_field))) << type;
  }
  EXPECT_FALSE(create_solver("AMSGRAD")->info().params.get_bool("bias_correction", true));
  EXPECT_FALSE(create_solver("Lamb")->info().params.get_bool("bias_correction", true));
}

TEST(SolverStateNames, MatchTheOptimizerFileNames) {
  const std::map<std::string, std::vector<std::string>> names = {
      {"Sgd", {}},
      {"SgdW", {"m"}},
      {"Momentum", {"m"}},
      {"Lars", {"v"}},
      {"Nesterov", {"m"}},
      {"Adadelta", {"e_sqr_grad", "e_sqr_delta"}},
      {"Adagrad", {"v"}},
      {"AdaBelief", {"mean", "var"}},
      {"RMSprop", {"v"}},
      {"RMSpropGraves", {"n", "g", "d"}},
      {"Adam", {"mean", "var"}},
      {"AdamW", {"mean", "var"}},
      {"AdaBound", {"mean", "var"}},
      {"Adamax", {"m", "u"}},
      {"AMSGRAD", {"m", "v", "v_hat"}},
      {"AMSBound", {"m", "v", "v_hat"}},
      {"Lamb", {"mean", "var"}},
      {"Lion", {"m"}},
  };
  for (const auto& [type, expected] : names) {
    auto s = create_solver(type);
    EXPECT_EQ(s->state_names(), expected) << type;
    s->set_parameters({{"w", make_param({1, 2, 3})}});
    EXPECT_EQ(s->state("w").pstate.size(), expected.size()) << type;
    EXPECT_EQ(s->state("w").t, 0u) << type;
  }
  EXPECT_EQ(create_solver("AdaBelief", {{"amsgrad", true}})->state_names(),
            (std::vector<std::string>{"mean", "var", "s_max"}));
}

TEST(SolverGrad, WeightDecayAddsToGrad) {
  auto s = create_solver("Sgd", {{"lr", 0.1}});
  auto p = make_param({1.0, -2.0, 4.0});
  s->set_parameters({{"w", p}});
  set_grad(*p, {0.5, 0.5, 0.5});
  s->weight_decay(0.25);
  expect_close(values_of(p->grad()), {0.75, 0.0, 1.5}, "grad after weight_decay");
  s->update();
  expect_close(values_of(p->data()), {0.925, -2.0, 3.85}, "data after update");
}

TEST(SolverGrad, ClipGradByNorm) {
  auto s = create_solver("Sgd");
  auto p = make_param({0, 0});
  auto q = make_param({0, 0});
  s->set_parameters({{"p", p}, {"q", q}});
  set_grad(*p, {3.0, 4.0});  // norm 5: clipped to 2
  set_grad(*q, {0.3, 0.4});  // norm 0.5: unchanged
  s->clip_grad_by_norm(2.0);
  expect_close(values_of(p->grad()), {1.2, 1.6}, "clipped grad");
  expect_close(values_of(q->grad()), {0.3, 0.4}, "small grad");
}

TEST(SolverGrad, ScaleGradAndZeroGrad) {
  auto s = create_solver("Sgd");
  auto p = make_param({0, 0, 0});
  s->set_parameters({{"p", p}});
  set_grad(*p, {1.0, -2.0, 0.5});
  s->scale_grad(4.0);
  expect_close(values_of(p->grad()), {4.0, -8.0, 2.0}, "scaled grad");
  s->zero_grad();
  expect_close(values_of(p->grad()), {0, 0, 0}, "zeroed grad");
}

TEST(SolverGrad, CheckInfOrNan) {
  auto s = create_solver("Adam");
  auto p = make_param({0, 0, 0});
  auto q = make_param({0, 0});
  s->set_parameters({{"p", p}, {"q", q}});
  set_grad(*p, {1, 2, 3});
  set_grad(*q, {4, 5});
  EXPECT_FALSE(s->check_inf_or_nan_grad());
  set_grad(*q, {4, std::numeric_limits<double>::infinity()});
  EXPECT_TRUE(s->check_inf_or_nan_grad());
  EXPECT_TRUE(s->check_inf_grad());
  EXPECT_FALSE(s->check_nan_grad());
  set_grad(*q, {4, 5});
  set_grad(*p, {1, std::nan(""), 3});
  EXPECT_TRUE(s->check_inf_or_nan_grad());
  EXPECT_TRUE(s->check_nan_grad());
  EXPECT_FALSE(s->check_inf_grad());
}

TEST(SolverLearningRate, SetLearningRateChangesTheStep) {
  for (const auto& type : supported_solvers()) {
    auto s = create_solver(type);
    s->set_learning_rate(0.125);
    EXPECT_EQ(s->learning_rate(), 0.125) << type;
  }
  auto s = create_solver("Sgd", {{"lr", 0.1}});
  run_solver(*s, {1.0}, {{1.0}});
  s->set_learning_rate(0.5);
  auto p = s->get_parameters()[0].second;
  set_grad(*p, {1.0});
  s->update();
  expect_close(values_of(p->data()), {1.0 - 0.1 - 0.5}, "Sgd after set_learning_rate");
  // SgdW scales its decoupled decay by lr / initial lr.
  auto w = create_solver("SgdW", {{"lr", 0.1}, {"momentum", 0.0}, {"wd", 0.1}});
  auto pw = make_param({2.0});
  w->set_parameters({{"w", pw}});
  w->set_learning_rate(0.2);
  set_grad(*pw, {1.0});
  w->update();
  expect_close(values_of(pw->data()), {2.0 - 0.2 - (0.2 / 0.1) * 0.1 * 2.0}, "SgdW with a new lr");
}

TEST(SolverParameters, ResetRetainAndRemove) {
  auto s = create_solver("Momentum", {{"lr", 1.0}, {"momentum", 0.5}});
  auto a = make_param({1.0});
  auto b = make_param({1.0});
  s->set_parameters({{"a", a}, {"b", b}});
  set_grad(*a, {1.0});
  set_grad(*b, {1.0});
  s->update();
  EXPECT_EQ(values_of(s->state("a").pstate.at("m")), Vec{1.0});
  s->set_parameters({{"a", a}}, false, true);  // keeps a's momentum
  EXPECT_EQ(values_of(s->state("a").pstate.at("m")), Vec{1.0});
  EXPECT_EQ(s->state("a").t, 1u);
  s->set_parameters({{"a", a}}, false, false);  // fresh state
  EXPECT_EQ(values_of(s->state("a").pstate.at("m")), Vec{0.0});
  EXPECT_EQ(s->num_parameters(), 2u);
  s->remove_parameters({"a"});
  EXPECT_EQ(s->num_parameters(), 1u);
  EXPECT_EQ(s->get_parameters()[0].first, "b");
  EXPECT_THROW(s->state("a"), Error);
  EXPECT_THROW(s->set_parameters({{"b", make_param({1.0, 2.0})}}, false, true), Error);
  s->set_parameters({{"c", make_param({1.0})}});
  EXPECT_EQ(s->num_parameters(), 1u);
}

// A solver restored from another's states (and hyper-parameters) continues bit-identically.
TEST(SolverState, SaveLoadRoundTripContinuesIdentically) {
  for (const auto& type : supported_solvers()) {
    SCOPED_TRACE(type);
    Attrs params;
    if (type == "AdaBelief") params = {{"amsgrad", true}, {"weight_decouple", true}, {"wd", 0.01}};
    auto first = create_solver(type, params);
    auto got = run_solver(*first, x0(), step_grads(), [](Solver& s) { s.weight_decay(0.01); });
    auto p1 = first->get_parameters()[0].second;
    auto p2 = make_param(got.back());
    auto second = create_solver(first->info().type, first->info().params);
    second->set_parameters({{"w", p2}});
    second->set_states(first->get_states());
    EXPECT_EQ(second->state("w").t, 2u);
    for (auto& [p, s] : {std::pair{p1, first.get()}, std::pair{p2, second.get()}}) {
      set_grad(*p, {0.2, 0.1, -0.3, 0.4, -0.1, 0.05});
      s->weight_decay(0.01);
      s->update();
    }
    EXPECT_EQ(values_of(p1->data()), values_of(p2->data()));
    for (const auto& name : first->state_names()) {
      EXPECT_EQ(values_of(first->state("w").pstate.at(name)), values_of(second->state("w").pstate.at(name)))
          << name;
    }
  }
}

// Above the parallel threshold the multithreaded loops give the same per-element results.
TEST(SolverUpdate, LargeParameterMatchesSmall) {
  const size_t repeats = 12000;  // 72000 elements
  Vec big_x, big_g1, big_g2;
  for (size_t r = 0; r < repeats; ++r) {
    big_x.insert(big_x.end(), x0().begin(), x0().end());
    big_g1.insert(big_g1.end(), step_grads()[0].begin(), step_grads()[0].end());
    big_g2.insert(big_g2.end(), step_grads()[1].begin(), step_grads()[1].end());
  }
  for (const auto& type : supported_solvers()) {
    if (type == "Lars" || type == "Lamb") continue;  // their step depends on whole-parameter norms
    auto small = create_solver(type);
    auto big = create_solver(type);
    const Vec small_x = run_solver(*small, x0(), step_grads()).back();
    const Vec got = run_solver(*big, big_x, {big_g1, big_g2}).back();
    for (size_t r = 0; r < repeats; r += 997) {
      expect_close(Vec(got.begin() + long(r * x0().size()), got.begin() + long((r + 1) * x0().size())), small_x,
                   type);
    }
  }
}

TEST(SolverState, SetStatesRejectsMismatches) {
  auto s = create_solver("Adam");
  s->set_parameters({{"w", make_param({1, 2})}});
  SolverState bad;
  bad.pstate["mean"] = NdArray::create({2});
  EXPECT_THROW(s->set_states({{"w", bad}}), Error);  // "var" missing
  bad.pstate["var"] = NdArray::create({3});
  EXPECT_THROW(s->set_states({{"w", bad}}), Error);  // wrong shape
  bad.pstate["var"] = NdArray::create({2});
  EXPECT_THROW(s->set_states({{"unknown", bad}}), Error);
  bad.t = 7;
  s->set_states({{"w", bad}});
  EXPECT_EQ(s->state("w").t, 7u);
}

}  // namespace
}  // namespace nn::test
