// bench_ops: milliseconds per forward and per forward+backward of single libnn functions (LayerNormalization
// over 4096 features, Softmax over 1000 classes, Add2 with broadcasting, Sigmoid/ReLU on 1M elements, Sum
// over an axis, BatchNormalization inference). One line per case:
// "<case> <forward ms> <forward+backward ms>" (argv: [seconds] [case filter]); scripts/bench_ops.sh compares them
// with PyTorch.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "nn/graph/functions.hpp"
#include "nn/graph/variable.hpp"

namespace {

nn::VariablePtr random_variable(const nn::Shape& shape, std::mt19937& rng, bool need_grad = true) {
  auto v = nn::Variable::create(shape, need_grad);
  std::normal_distribution<float> n(0.f, 1.f);
  float* p = v->data()->cast<float>(true);
  for (int64_t i = 0; i < v->size(); ++i) p[i] = n(rng);
  return v;
}

// Best of 5 rounds of the mean time of `step` over about seconds/5 each, after 3 warm-up calls.
double time_ms(const std::function<void()>& step, double seconds) {
  return 1000.0 * bench::best_seconds_per_call(step, seconds, 3, 5);
}

const char* g_only = nullptr;  // argv[2]: run only the cases whose name contains it

void time_case(const char* name, const nn::VariablePtr& y, double seconds) {
  if (g_only && std::string(name).find(g_only) == std::string::npos) return;
  const double fwd = time_ms([&] { y->forward(); }, seconds);
  // As the PyTorch twin: the output gradient is made once (ones), and input gradients accumulate.
  y->forward();
  float* dy = y->grad()->cast<float>(true);
  std::fill(dy, dy + y->size(), 1.f);
  const double fwd_bwd = time_ms(
      [&] {
        y->forward();
        y->backward(nn::RootGrad::kKeep);
      },
      seconds);
  std::printf("%-28s %10.4f %10.4f\n", name, fwd, fwd_bwd);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
  if (argc > 2) g_only = argv[2];
  std::mt19937 rng(1);
  {
    auto x = random_variable({64, 4096}, rng);
    auto beta = random_variable({1, 4096}, rng);
    auto gamma = random_variable({1, 4096}, rng);
    time_case("layer_norm_64x4096", nn::call1("LayerNormalization", {x, beta, gamma}), seconds);
  }
  {
    auto x = random_variable({256, 1000}, rng);
    time_case("softmax_256x1000", nn::call1("Softmax", {x}, {{"axis", int64_t(1)}}), seconds);
  }
  {
    auto a = random_variable({32, 64, 56, 56}, rng);
    auto b = random_variable({1, 64, 1, 1}, rng);
    time_case("add2_bcast_32x64x56x56+64", nn::call1("Add2", {a, b}), seconds);
  }
  {
    auto x = random_variable({1024, 1024}, rng);
    time_case("sigmoid_1024x1024", nn::call1("Sigmoid", {x}), seconds);
    time_case("relu_1024x1024", nn::call1("ReLU", {x}), seconds);
  }
  {
    auto x = random_variable({64, 1024, 64}, rng);
    time_case("sum_axis1_64x1024x64", nn::call1("Sum", {x}, {{"axes", std::vector<int64_t>{1}}}), seconds);
  }
  {
    auto x = random_variable({64, 64, 56, 56}, rng);
    auto beta = random_variable({1, 64, 1, 1}, rng);
    auto gamma = random_variable({1, 64, 1, 1}, rng);
    auto mean = random_variable({1, 64, 1, 1}, rng, false);
    auto var = random_variable({1, 64, 1, 1}, rng, false);
    float* v = var->data()->cast<float>();
    for (int64_t i = 0; i < var->size(); ++i) v[i] = 1.f + v[i] * v[i];
    time_case("bn_infer_64x64x56x56",
              nn::call1("BatchNormalization", {x, beta, gamma, mean, var}, {{"batch_stat", false}}), seconds);
  }
  return 0;
}
