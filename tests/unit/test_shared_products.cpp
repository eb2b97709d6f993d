// BatchMatmul's products shared out whole among threads (product_sharing_threads, ops/array/array_args.hpp): when
// each product runs on one thread and their sum pays for a team, at the quiet team's sizes in inference; the
// results equal those of the products run in turn on one thread. run_in_team_mode (ops/detail/team_mode.hpp) gives
// the work TeamMode's choice only for timed inference calls.
#include <gtest/gtest.h>
#include <omp.h>

#include <random>

#include "nn/graph/grad_mode.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "ops/array/array_args.hpp"
#include "ops/detail/team_mode.hpp"
#include "ops/detail/thread_scope.hpp"

namespace {
using nn::Shape;

struct QuietTeam {  // inference while TeamMode runs the team on a quiet machine
  QuietTeam() : saved(nn::ops::team_awake_wanted().load()) { nn::ops::team_awake_wanted() = true; }
  ~QuietTeam() { nn::ops::team_awake_wanted() = saved; }
  bool saved;
  nn::NoGradScope no_grad;
};

nn::ops::BatchMatmulPlan plan(const Shape& a, const Shape& b) {
  return nn::ops::plan_batch_matmul({{"transpose_a", false}, {"transpose_b", false}}, a, b);
}

TEST(SharedProducts, AttentionHeadsShareOutOnAQuietTeam) {
  if (omp_get_max_threads() < 2) GTEST_SKIP() << "one OpenMP thread";
  // A transformer's two heads at batch 1: 128 x 64 by 64 x 128, 2.1 MFLOP each on the small-product kernel.
  const auto heads = plan({2, 128, 64}, {2, 64, 128});
  EXPECT_EQ(nn::ops::product_sharing_threads(heads), 1);  // 4.2 MFLOP: below a busy team's size
  {
    QuietTeam quiet;
    EXPECT_EQ(nn::ops::product_sharing_threads(heads), 2);
    EXPECT_EQ(nn::ops::product_sharing_threads(plan({1, 128, 64}, {1, 64, 128})), 1);  // one product
    // A product the team splits itself (512^3 on oneDNN's threads) runs in turn.
    EXPECT_EQ(nn::ops::product_sharing_threads(plan({2, 512, 512}, {2, 512, 512})), 1);
  }
  // 64 heads (batch 32): 134 MFLOP share out on any machine.
  EXPECT_EQ(nn::ops::product_sharing_threads(plan({64, 128, 64}, {64, 64, 128})), 2);
}

std::vector<float> batch_matmul(const Shape& as, const Shape& bs) {
  auto f = nn::OpRegistry::instance().create("BatchMatmul", {}, nn::cpu_context());
  auto a = nn::Variable::create(as), b = nn::Variable::create(bs), y = nn::Variable::create();
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (auto* v : {a.get(), b.get()}) {
    float* p = v->data()->cast<float>(true);
    for (int64_t i = 0; i < v->size(); ++i) p[i] = dist(rng);
  }
  f->setup({a.get(), b.get()}, {y.get()});
  f->forward({a.get(), b.get()}, {y.get()});
  return y->data()->to_vector();
}

TEST(SharedProducts, SharedResultsEqualProductsInTurn) {
  const Shape as{6, 96, 64}, bs{6, 64, 70};  // 0.86 MFLOP per product, 5.2 in all
  std::vector<float> in_turn;
  {
    nn::ops::ThreadScope one(1);
    in_turn = batch_matmul(as, bs);
  }
  QuietTeam quiet;
  ASSERT_GT(nn::ops::product_sharing_threads(plan(as, bs)), omp_get_max_threads() > 1 ? 1 : 0);
  EXPECT_EQ(batch_matmul(as, bs), in_turn);
}

TEST(SharedProducts, OnlyTimedInferenceCallsFollowTeamMode) {
  const int team = omp_get_max_threads();
  auto threads_given = [](double flops) {
    int given = 0;
    nn::ops::run_in_team_mode(flops, [&](int threads) { given = threads; });
    return given;
  };
  EXPECT_EQ(threads_given(1e9), team);  // gradients on: training keeps its team
  nn::NoGradScope no_grad;
  EXPECT_EQ(threads_given(nn::ops::kTeamTrialMinFlops / 2), team);  // too small to time
  const int chosen = nn::ops::TeamMode::instance().team() ? team : 1;
  EXPECT_EQ(threads_given(1e9), team > 1 ? chosen : team);
}

}  // namespace
