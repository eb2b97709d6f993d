// bench_gpu: training images/s (forward+backward+Adam) and inference latency of LeNet, the small ResNet and
// ResNet-18 (3x224x224) in one context (cudnn:float or cudnn:half; argv: context [seconds] [filter]). Every
// step ends by reading the loss (or output) back, which waits for the device. scripts/bench_gpu.sh runs it
// beside PyTorch on the same GPU.
#include <exception>
#include <cstdio>
#include <functional>
#include <random>
#include <string>

#include "bench_models.hpp"
#include "bench_timing.hpp"
#include "nn/core/context.hpp"
#include "nn/graph/functions.hpp"
#include "nn/train/loss_scaler.hpp"

namespace {

void fill_uniform(const nn::VariablePtr& v, std::mt19937& rng, int labels = 0) {
  std::uniform_real_distribution<float> u(0.f, 1.f);
  std::uniform_int_distribution<int> l(0, labels > 0 ? labels - 1 : 0);
  float* p = v->data()->cast<float>(true);
  for (int64_t i = 0; i < v->size(); ++i) p[i] = labels > 0 ? float(l(rng)) : u(rng);
}

// Mean seconds per step over at least `seconds`, after warm-up steps (cuDNN algorithm search included there).
double time_step(const std::function<void()>& step, double seconds) {
  return bench::best_seconds_per_call(step, seconds, 5, 1);
}

void train(const char* name, bench::Model m, int64_t batch, int labels, bool half, double seconds) {
  std::mt19937 rng(1);
  fill_uniform(m.x, rng);
  fill_uniform(m.label, rng, labels);
  auto solver = nn::create_solver("Adam", {});
  solver->set_parameters(m.params);
  nn::train::DynamicLossScaler scaler({half, 1024.0, 2.0, 2000});
  auto step = [&] {
    m.loss->forward(/*clear_buffer=*/false, /*clear_no_need_grad=*/true);
    solver->zero_grad();
    m.loss->grad()->fill(half ? scaler.scale() : 1.0);
    m.loss->backward(nn::RootGrad::kKeep, /*clear_buffer=*/true);
    if (!half || scaler.unscale_or_skip(*solver)) solver->update();
    (void)m.loss->data()->get<float>();  // waits for the device
  };
  const double s = time_step(step, seconds);
  std::printf("train %-12s batch %4lld  %10.1f images/s\n", name, (long long)batch, double(batch) / s);
}

void infer(const char* name, bench::Model m, int64_t batch, double seconds) {
  std::mt19937 rng(2);
  fill_uniform(m.x, rng);
  const double s = time_step(
      [&] {
        m.output->forward(/*clear_buffer=*/true);
        (void)m.output->data()->get<float>();
      },
      seconds);
  std::printf("infer %-12s batch %4lld  %10.4f ms  %10.1f images/s\n", name, (long long)batch, s * 1e3,
              double(batch) / s);
}

}  // namespace

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_gpu CONTEXT [seconds] [filter]   (CONTEXT: cudnn, cudnn:half, cpu)\n");
    return 2;
  }
  const nn::Context ctx = nn::parse_context(argv[1]);
  nn::check_context_available(ctx);
  nn::set_default_context(ctx);
  const bool half = ctx.uses_half();
  const double seconds = argc > 2 ? std::atof(argv[2]) : 3.0;
  const std::string only = argc > 3 ? argv[3] : "";
  auto want = [&](const char* k) { return only.empty() || only.find(k) != std::string::npos; };
  std::mt19937 rng(0);
  std::printf("context %s\n", ctx.to_string().c_str());
  if (want("lenet")) {
    train("lenet", bench::lenet(64, true, rng), 64, 10, half, seconds);
    infer("lenet", bench::lenet(1, false, rng), 1, seconds);
    infer("lenet", bench::lenet(64, false, rng), 64, seconds);
  }
  if (want("small_resnet")) {
    train("small_resnet", bench::small_resnet(32, true, rng), 32, 10, half, seconds);
    infer("small_resnet", bench::small_resnet(1, false, rng), 1, seconds);
    infer("small_resnet", bench::small_resnet(64, false, rng), 64, seconds);
  }
  if (want("resnet18")) {
    train("resnet18", bench::resnet18(64, 224, true, rng), 64, 1000, half, seconds);
    infer("resnet18", bench::resnet18(1, 224, false, rng), 1, seconds);
    infer("resnet18", bench::resnet18(64, 224, false, rng), 64, seconds);
  }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu: error: %s\n", e.what());
    return 3;
  }
}
