// Solver steps on a CUDA device against the same steps on the CPU (Sgd, Momentum, Adam, AdamW).
#include "gpu_compare.hpp"
#include "nn/solvers/solver.hpp"

namespace nn::gpu_test {
namespace {

// Three updates of a (4, 5) and a (7,) parameter; the GPU run keeps data and grads on device 0.
std::vector<std::vector<float>> run_solver(const std::string& type, const Attrs& params, bool on_gpu) {
  std::mt19937 rng(3);
  auto solver = create_solver(type, params);
  Solver::ParameterList list;
  for (const Shape& s : {Shape{4, 5}, Shape{7}}) {
    auto v = Variable::create(s, true);
    fill(v->data(), random_values(v->size(), rng, -1.f, 1.f));
    list.emplace_back("p" + std::to_string(list.size()), v);
  }
  solver->set_parameters(list);
  for (int step = 0; step < 3; ++step) {
    for (auto& [name, v] : list) {
      fill(v->grad(), random_values(v->size(), rng, -1.f, 1.f));
      if (on_gpu) {
        v->data()->cast<float>(false, "cuda:0");
        v->grad()->cast<float>(false, "cuda:0");
      }
    }
    if (step == 2) solver->weight_decay(0.01);  // host-side for Sgd/Momentum/Adam, fused for AdamW
    solver->update();
    if (on_gpu) {
      for (auto& [name, v] : list) EXPECT_EQ(v->data()->device(), "cuda:0") << type << " left the device";
    }
  }
  std::vector<std::vector<float>> out;
  for (auto& [name, v] : list) out.push_back(v->data()->to_vector());
  return out;
}

TEST(GpuSolvers, StepsMatchCpu) {
  NN_SKIP_WITHOUT_GPU();
  cuda::init_device();
  const std::vector<std::pair<std::string, Attrs>> solvers = {
      {"Sgd", {{"lr", 0.1}}},
      {"Momentum", {{"lr", 0.1}, {"momentum", 0.9}}},
      {"Adam", {{"alpha", 0.01}}},
      {"AdamW", {{"alpha", 0.01}, {"wd", 0.1}}}};
  for (const auto& [type, params] : solvers) {
    SCOPED_TRACE(type);
    auto cpu = run_solver(type, params, false);
    auto gpu = run_solver(type, params, true);
    ASSERT_EQ(cpu.size(), gpu.size());
    for (size_t p = 0; p < cpu.size(); ++p)
      for (size_t i = 0; i < cpu[p].size(); ++i) ASSERT_NEAR(gpu[p][i], cpu[p][i], 1e-5 + 1e-4 * std::fabs(cpu[p][i]));
  }
}

}  // namespace
}  // namespace nn::gpu_test
