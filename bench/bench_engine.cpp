// bench_engine: images/s of forward+backward+update through the libnn API, LeNet batch-1 latency, and the
// peak memory of a deep MLP inference with and without clear_buffer. Prints one line per figure.
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>

#include "bench_models.hpp"
#include "bench_timing.hpp"
#include "nn/core/ndarray.hpp"
#include "nn/solvers/solver.hpp"

namespace {

void fill_random(const nn::VariablePtr& v, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0.f, 1.f);
  float* p = v->data()->cast<float>(true);
  for (int64_t i = 0; i < v->size(); ++i) p[i] = u(rng);
}

void fill_labels(const nn::VariablePtr& v, std::mt19937& rng) {
  std::uniform_int_distribution<int> u(0, 9);
  float* p = v->data()->cast<float>(true);
  for (int64_t i = 0; i < v->size(); ++i) p[i] = float(u(rng));
}

// Runs `step` for at least `seconds` after warm-up; returns the best of 3 rounds' mean seconds per step.
double time_step(const std::function<void()>& step, double seconds) {
  return bench::best_seconds_per_call(step, seconds, 3, 3);
}

void train_bench(const char* name, bench::Model m, int64_t batch, double seconds) {
  std::mt19937 rng(1);
  auto solver = nn::create_solver("Adam", {});
  solver->set_parameters(m.params);
  auto step = [&] {
    fill_random(m.x, rng);
    fill_labels(m.label, rng);
    m.loss->forward(/*clear_buffer=*/false, /*clear_no_need_grad=*/true);
    solver->zero_grad();
    m.loss->backward(nn::RootGrad::kOnes, /*clear_buffer=*/true);
    solver->update();
  };
  step();  // the first step allocates what every step keeps (solver state, gradients)
  const size_t base = nn::NdArray::live_bytes();
  nn::NdArray::reset_peak_bytes();
  step();
  const double peak_mib = double(nn::NdArray::peak_bytes() - base) / (1 << 20);
  const double kept_mib = double(base) / (1 << 20);
  double s = time_step(step, seconds);
  std::printf(
      "train %-14s batch %4lld  %10.1f images/s  (arrays: %.0f MiB kept, %.0f MiB more at the peak of a step)\n",
      name, (long long)batch, double(batch) / s, kept_mib, peak_mib);
}

void latency_bench(const char* name, bench::Model m, double seconds) {
  std::mt19937 rng(2);
  fill_random(m.x, rng);
  double s = time_step([&] { m.output->forward(true); }, seconds);
  std::printf("infer %-14s batch    1  %10.4f ms\n", name, s * 1e3);
}

void infer_throughput(const char* name, bench::Model m, int64_t batch, double seconds) {
  std::mt19937 rng(3);
  fill_random(m.x, rng);
  double s = time_step([&] { m.output->forward(true); }, seconds);
  std::printf("infer %-14s batch %4lld  %10.1f images/s\n", name, (long long)batch, double(batch) / s);
}

void memory_bench() {
  for (bool clear : {false, true}) {
    std::mt19937 rng(4);
    auto m = bench::deep_mlp(256, 50, 1024, rng);
    fill_random(m.x, rng);
    size_t base = nn::NdArray::live_bytes();
    nn::NdArray::reset_peak_bytes();
    m.output->forward(clear);
    double peak = double(nn::NdArray::peak_bytes() - base) / (1 << 20);
    std::printf("memory mlp50x1024 batch 256 clear_buffer=%d  peak activations %.1f MiB\n", int(clear), peak);
  }
}
}  // namespace

int main(int argc, char** argv) {
  nn::NdArray::open_arena();  // activations and gradients from the arena, as nncli train and infer take them
  double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  std::string only = argc > 2 ? argv[2] : "";
  std::mt19937 rng(0);
  auto want = [&](const char* k) { return only.empty() || only == k; };
  if (want("lenet")) {
    train_bench("lenet", bench::lenet(64, true, rng), 64, seconds);
    train_bench("lenet", bench::lenet(128, true, rng), 128, seconds);
    latency_bench("lenet", bench::lenet(1, false, rng), seconds);
  }
  if (want("mlp")) train_bench("mlp", bench::mlp(128, rng), 128, seconds);
  if (want("resnet")) {
    train_bench("small_resnet", bench::small_resnet(32, true, rng), 32, seconds);
    infer_throughput("small_resnet", bench::small_resnet(32, false, rng), 32, seconds);
  }
  // Training beyond LeNet (issue 37): CIFAR ResNet-20 at batch 128 and ResNet-18 on 224 x 224 at batch 32 (only
  // when asked for by name: a ResNet-18 step takes seconds on two cores).
  if (only == "resnet20") train_bench("resnet20", bench::resnet20(128, true, rng), 128, seconds);
  if (only == "resnet18") train_bench("resnet18_224", bench::resnet18(32, 224, true, rng), 32, seconds);
  if (want("memory")) memory_bench();
  return 0;
}
