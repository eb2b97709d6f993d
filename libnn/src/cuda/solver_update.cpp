// Device paths of the Sgd, Momentum, Adam and AdamW updates (same rules as libnn/src/solvers).
#include "nn/cuda/solver_update.hpp"

#include <cmath>
#include <limits>

#include "cuda/common.hpp"
#include "cuda/kernels/kernels.hpp"

namespace nn::cuda {
namespace {

int device_of(const std::string& device) {
  auto colon = device.find(':');
  return colon == std::string::npos ? 0 : std::stoi(device.substr(colon + 1));
}

}  // namespace

bool update_on_device(const SolverStep& step, Variable& param, SolverState& state) {
  const std::string& type = step.type;
  if (type != "Sgd" && type != "Momentum" && type != "Adam" && type != "AdamW") return false;
  const std::string device = param.data()->device();
  if (device.rfind("cuda", 0) != 0) return false;
  const int id = device_of(device);
  set_device(id);
  OpScope scope("solver " + type);
  cudaStream_t s = stream(id);
  const int64_t n = param.size();
  float* x = param.data()->cast<float>(false, device);
  const float* g = param.grad()->get<float>(device);
  auto state_array = [&](const char* name) { return state.pstate.at(name)->cast<float>(false, device); };
  const Attrs& h = step.hyper;
  if (type == "Sgd") {
    k::sgd_update(s, n, x, g, float(h.get_float("lr", 1e-3)));
  } else if (type == "Momentum") {
    k::momentum_update(s, n, x, g, state_array("m"), float(h.get_float("lr", 1e-3)),
                       float(h.get_float("momentum", 0.9)));
  } else {
    const float alpha = float(h.get_float("alpha", 1e-3));
    const float beta1 = float(h.get_float("beta1", 0.9)), beta2 = float(h.get_float("beta2", 0.999));
    const uint32_t t = step.t < std::numeric_limits<uint32_t>::max() - 1 ? step.t + 1 : step.t;
    const double correction = std::sqrt(1.0 - std::pow(double(beta2), double(t))) /
                              (1.0 - std::pow(double(beta1), double(t)));
    const float alpha_t = float(alpha * correction);
    float decay = 0.f;
    if (type == "AdamW") {
      const float eta_t = step.initial_lr != 0.0 ? float(alpha / float(step.initial_lr)) : 1.0f;
      decay = float(eta_t * step.fused_decay);
    }
    k::adam_update(s, n, x, g, state_array("mean"), state_array("var"), alpha_t, beta1, beta2,
                   float(h.get_float("eps", 1e-8)), decay);
  }
  return true;
}

}  // namespace nn::cuda
