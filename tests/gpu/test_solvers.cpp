// Every solver and gradient utility on a CUDA device against the same steps on the CPU.
#include <limits>
#include <set>

#include "gpu_compare.hpp"
#include "nn/solvers/solver.hpp"

namespace nn::gpu_test {
namespace {

constexpr const char* kDevice = "cuda:0";

struct SolverCase {
  std::string type;
  Attrs params;
};

// Final data, every state array (by parameter, then state name) and the counts of a run.
struct SolverRun {
  std::vector<std::vector<float>> data, states;
  std::vector<uint32_t> counts;
};

// Small parameters, and one above k::kNormPartials * 256 elements so the norm reductions grid-stride.
const std::vector<Shape>& parameter_shapes() {
  static const std::vector<Shape> shapes = {Shape{4, 5}, Shape{7}, Shape{600, 250}};
  return shapes;
}

Solver::ParameterList make_parameters(std::mt19937& rng) {
  Solver::ParameterList list;
  for (const Shape& s : parameter_shapes()) {
    auto v = Variable::create(s, true);
    fill(v->data(), random_values(v->size(), rng, -1.f, 1.f));
    list.emplace_back("p" + std::to_string(list.size()), v);
  }
  return list;
}

// New random grads, on the host or (as backward leaves them in training) on the device.
void set_grads(Solver::ParameterList& list, std::mt19937& rng, bool on_gpu) {
  for (auto& [name, v] : list) {
    fill(v->grad(), random_values(v->size(), rng, -1.f, 1.f));
    if (on_gpu) v->grad()->cast<float>(false, kDevice);
  }
}

// Three updates: weight_decay before the first, clip_grad_by_norm and scale_grad before the second, a
// halved learning rate before the third. On the GPU the data starts on the host and the grads on the device.
SolverRun run_solver(const SolverCase& c, bool on_gpu) {
  std::mt19937 rng(3);
  auto solver = create_solver(c.type, c.params);
  auto list = make_parameters(rng);
  solver->set_parameters(list);
  for (int step = 0; step < 3; ++step) {
    set_grads(list, rng, on_gpu);
    if (step == 0) {
      solver->weight_decay(0.01);  // on the grads, or the fused rate of SgdW, AdamW, Lamb, Lion, Lars
      if (on_gpu) {
        for (auto& [name, v] : list) EXPECT_EQ(v->data()->device(), "cpu") << "the data starts on the host";
      }
    }
    if (step == 1) {
      solver->clip_grad_by_norm(2.0);  // clips p0 (||g|| ~ 2.6) and p2, not p1 (~ 1.5)
      solver->scale_grad(0.5);
    }
    if (step == 2) solver->set_learning_rate(solver->learning_rate() * 0.5);
    solver->update();
    if (!on_gpu) continue;
    for (auto& [name, v] : list) {
      EXPECT_EQ(v->data()->device(), kDevice) << c.type << ": " << name << "'s data left the device";
      EXPECT_EQ(v->grad()->device(), kDevice) << c.type << ": " << name << "'s grad left the device";
    }
    for (const auto& [name, state] : solver->get_states())
      for (const auto& [state_name, array] : state.pstate)
        EXPECT_EQ(array->device(), kDevice) << c.type << ": state " << state_name << " of " << name;
  }
  SolverRun run;
  for (auto& [name, v] : list) run.data.push_back(v->data()->to_vector());
  for (const auto& [name, state] : solver->get_states()) {
    run.counts.push_back(state.t);
    for (const auto& [state_name, array] : state.pstate) run.states.push_back(array->to_vector());
  }
  return run;
}

void expect_near_all(const std::vector<std::vector<float>>& gpu, const std::vector<std::vector<float>>& cpu,
                     const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  for (size_t a = 0; a < cpu.size(); ++a) {
    ASSERT_EQ(gpu[a].size(), cpu[a].size()) << what << " " << a;
    for (size_t i = 0; i < cpu[a].size(); ++i)
      ASSERT_NEAR(gpu[a][i], cpu[a][i], 1e-5 + 1e-4 * std::fabs(cpu[a][i]))
          << what << " " << a << " element " << i;
  }
}

const std::vector<SolverCase>& solver_cases() {
  static const std::vector<SolverCase> cases = {
      {"Sgd", {{"lr", 0.1}}},
      {"SgdW", {{"lr", 0.1}, {"momentum", 0.9}, {"wd", 0.05}}},
      {"Momentum", {{"lr", 0.1}, {"momentum", 0.9}}},
      {"Nesterov", {{"lr", 0.1}, {"momentum", 0.9}}},
      {"Lars", {{"lr", 0.1}, {"momentum", 0.9}, {"coefficient", 0.01}}},
      {"Adadelta", {}},
      {"Adagrad", {{"lr", 0.1}}},
      {"AdaBelief", {{"alpha", 0.01}}},
      {"AdaBelief", {{"alpha", 0.01}, {"amsgrad", true}, {"weight_decouple", true}, {"wd", 0.1}}},
      // rho_t ~ 1, 2, 3 (<= 4) in the three steps: only the rectified plain momentum steps run.
      {"AdaBelief",
       {{"alpha", 0.01}, {"rectify", true}, {"weight_decouple", true}, {"fixed_decay", true}, {"wd", 0.1}}},
      {"RMSprop", {{"lr", 0.01}}},
      {"RMSpropGraves", {{"lr", 0.01}}},
      {"Adam", {{"alpha", 0.01}}},
      {"AdamW", {{"alpha", 0.01}, {"wd", 0.1}}},
      {"AdaBound", {{"alpha", 0.01}}},
      {"Adamax", {{"alpha", 0.01}}},
      {"AMSGRAD", {{"alpha", 0.01}}},
      {"AMSGRAD", {{"alpha", 0.01}, {"bias_correction", true}}},
      {"AMSBound", {{"alpha", 0.01}}},
      {"AMSBound", {{"alpha", 0.01}, {"bias_correction", true}}},
      {"Lamb", {{"eta", 0.01}}},
      {"Lamb", {{"eta", 0.01}, {"bias_correction", true}, {"gamma_l", 0.1}, {"gamma_u", 5.0}}},
      {"Lion", {{"lr", 0.01}}}};
  return cases;
}

TEST(GpuSolvers, EverySolverHasACase) {
  NN_SKIP_WITHOUT_GPU();
  std::set<std::string> covered;
  for (const auto& c : solver_cases()) covered.insert(c.type);
  for (const auto& type : supported_solvers()) EXPECT_TRUE(covered.count(type)) << type << " is not tested";
}

TEST(GpuSolvers, StepsMatchCpu) {
  NN_SKIP_WITHOUT_GPU();
  for (const auto& c : solver_cases()) {
    SCOPED_TRACE(c.type + " " + [&] {
      std::string s;
      for (const auto& [k, v] : c.params.values()) s += k + "=" + attr_to_string(v) + " ";
      return s;
    }());
    const SolverRun cpu = run_solver(c, false);
    const SolverRun gpu = run_solver(c, true);
    expect_near_all(gpu.data, cpu.data, "data");
    expect_near_all(gpu.states, cpu.states, "state");
    EXPECT_EQ(gpu.counts, cpu.counts);
  }
}

// Host grads keep the host update even in a CUDA build.
TEST(GpuSolvers, HostGradsUpdateOnTheHost) {
  NN_SKIP_WITHOUT_GPU();
  std::mt19937 rng(7);
  auto solver = create_solver("Adam", {{"alpha", 0.01}});
  auto list = make_parameters(rng);
  solver->set_parameters(list);
  set_grads(list, rng, false);
  solver->update();
  for (auto& [name, v] : list) EXPECT_EQ(v->data()->device(), "cpu") << name;
}

// The inf / nan checks over device grads, with the bad element in the last (largest) parameter.
TEST(GpuSolvers, InfAndNanChecksOnDeviceGrads) {
  NN_SKIP_WITHOUT_GPU();
  std::mt19937 rng(9);
  auto solver = create_solver("Sgd", {{"lr", 0.1}});
  auto list = make_parameters(rng);
  solver->set_parameters(list);
  set_grads(list, rng, true);
  EXPECT_FALSE(solver->check_inf_grad());
  EXPECT_FALSE(solver->check_nan_grad());
  EXPECT_FALSE(solver->check_inf_or_nan_grad());
  for (auto& [name, v] : list) EXPECT_EQ(v->grad()->device(), kDevice) << "the checks moved " << name;

  auto set_last = [&](float value) {
    auto& grad = list.back().second->grad();
    grad->cast<float>()[grad->size() - 1] = value;
    grad->cast<float>(false, kDevice);
  };
  set_last(std::numeric_limits<float>::infinity());
  EXPECT_TRUE(solver->check_inf_grad());
  EXPECT_FALSE(solver->check_nan_grad());
  EXPECT_TRUE(solver->check_inf_or_nan_grad());
  set_last(std::numeric_limits<float>::quiet_NaN());
  EXPECT_FALSE(solver->check_inf_grad());
  EXPECT_TRUE(solver->check_nan_grad());
  EXPECT_TRUE(solver->check_inf_or_nan_grad());
  set_last(-std::numeric_limits<float>::infinity());
  EXPECT_TRUE(solver->check_inf_grad());
  EXPECT_TRUE(solver->check_inf_or_nan_grad());
  set_last(0.5f);
  EXPECT_FALSE(solver->check_inf_or_nan_grad());
}

}  // namespace
}  // namespace nn::gpu_test
