// Device paths of every solver update and of the Solver base's gradient utilities (rules as libnn/src/solvers).
#include "nn/cuda/solver_update.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "cuda/common.hpp"
#include "cuda/kernels/solvers.hpp"
#include "solvers/solver_common.hpp"

namespace nn::cuda {
namespace {

using solvers::adam_bias_correction;
using solvers::current_step;

int device_index(const std::string& device) {
  const auto colon = device.find(':');
  return colon == std::string::npos ? 0 : std::stoi(device.substr(colon + 1));
}

bool is_cuda_device(const std::string& device) { return device.rfind("cuda", 0) == 0; }

bool has_device_rule(const std::string& type) {
  // Every entry of nn/solvers/solvers.def.
  static const std::set<std::string> types = {
      "Sgd",           "SgdW", "Momentum", "Lars",     "Nesterov", "Adadelta", "Adagrad",  "AdaBelief", "RMSprop",
      "RMSpropGraves", "Adam", "AdamW",    "AdaBound", "Adamax",   "AMSGRAD",  "AMSBound", "Lamb",      "Lion"};
  return types.count(type) != 0;
}

// Device scratch of a norm reduction: k::kNormPartials partial sums, then `sums` results.
class NormScratch {
 public:
  explicit NormScratch(int sums) : buffer_(device_buffer((k::kNormPartials + sums) * sizeof(double))) {}
  double* partials() const { return static_cast<double*>(buffer_->ptr); }
  double* sum(int i) const { return partials() + k::kNormPartials + i; }

 private:
  std::shared_ptr<Buffer> buffer_;
};

// The grad's device of a parameter, made current, with its stream and the op name for error messages.
struct DeviceScope {
  DeviceScope(Variable& v, const std::string& what)
      : device(v.grad()->device()), id(device_index(device)), op("solver " + what) {
    set_device(id);
    s = stream(id);
  }
  std::string device;
  int id;
  std::string op;  // outlives the OpScope that points at it
  cudaStream_t s = nullptr;
};

// The update rules; x, g and the state arrays are float copies on the grad's device.
void run_update(const SolverStep& step, Variable& param, SolverState& state, const DeviceScope& d) {
  const std::string& type = step.type;
  const Attrs& h = step.hyper;
  auto hp = [&](const char* name, double def) { return float(h.get_float(name, def)); };
  auto state_array = [&](const char* name) { return state.pstate.at(name)->cast<float>(false, d.device); };
  const cudaStream_t s = d.s;
  const int64_t n = param.size();
  const uint32_t t = current_step(state);
  const float* g = param.grad()->get<float>(d.device);
  float* x = param.data()->cast<float>(false, d.device);

  if (type == "Sgd") {
    k::sgd_update(s, n, x, g, hp("lr", 1e-3));
  } else if (type == "SgdW") {
    const float lr = hp("lr", 1e-3), init_lr = float(step.initial_lr);
    const float decay = float((init_lr != 0.0f ? lr / init_lr : 1.0f) * step.fused_decay);
    k::momentum_update(s, n, x, g, state_array("m"), lr, hp("momentum", 0.9), decay);
  } else if (type == "Momentum") {
    k::momentum_update(s, n, x, g, state_array("m"), hp("lr", 1e-3), hp("momentum", 0.9), 0.f);
  } else if (type == "Nesterov") {
    k::nesterov_update(s, n, x, g, state_array("m"), hp("lr", 1e-3), hp("momentum", 0.9));
  } else if (type == "Lars") {
    NormScratch norms(2);
    k::sum_of_squares(s, n, g, norms.partials(), norms.sum(0));
    k::sum_of_squares(s, n, x, norms.partials(), norms.sum(1));
    k::lars_update(s, n, x, g, state_array("v"), norms.sum(0), hp("lr", 1e-3), hp("momentum", 0.9),
                   hp("coefficient", 0.001), hp("eps", 1e-6), float(step.fused_decay));
  } else if (type == "Adadelta") {
    k::adadelta_update(s, n, x, g, state_array("e_sqr_grad"), state_array("e_sqr_delta"), hp("lr", 1.0),
                       hp("decay", 0.95), hp("eps", 1e-6));
  } else if (type == "Adagrad") {
    k::adagrad_update(s, n, x, g, state_array("v"), hp("lr", 1e-2), hp("eps", 1e-8));
  } else if (type == "RMSprop") {
    k::rmsprop_update(s, n, x, g, state_array("v"), hp("lr", 1e-3), hp("decay", 0.9), hp("eps", 1e-8));
  } else if (type == "RMSpropGraves") {
    k::rmsprop_graves_update(s, n, x, g, state_array("n"), state_array("g"), state_array("d"), hp("lr", 1e-4),
                             hp("decay", 0.95), hp("momentum", 0.9), hp("eps", 1e-4));
  } else if (type == "Lamb") {
    const float beta1 = hp("beta1", 0.9), beta2 = hp("beta2", 0.999);
    const bool bias_correction = h.get_bool("bias_correction", false);
    const float c1 = bias_correction ? float(1.0 - std::pow(double(beta1), double(t))) : 1.0f;
    const float c2 = bias_correction ? float(1.0 - std::pow(double(beta2), double(t))) : 1.0f;
    const float eps = hp("eps", 1e-6);
    auto r = device_buffer(size_t(n) * sizeof(float));
    float* rp = static_cast<float*>(r->ptr);
    k::lamb_direction(s, n, x, g, state_array("mean"), state_array("var"), rp, beta1, beta2, eps, c1, c2,
                      float(step.fused_decay));
    NormScratch norms(2);
    k::sum_of_squares(s, n, rp, norms.partials(), norms.sum(0));
    k::sum_of_squares(s, n, x, norms.partials(), norms.sum(1));
    k::lamb_apply(s, n, x, rp, norms.sum(0), hp("eta", 1e-3), hp("gamma_l", 0.0), hp("gamma_u", 10.0), eps);
  } else if (type == "Lion") {
    k::lion_update(s, n, x, g, state_array("m"), hp("lr", 1e-4), hp("beta1", 0.9), hp("beta2", 0.99),
                   float(step.fused_decay));
  } else {
    // The Adam family (AdamLike): alpha, beta1, beta2, eps.
    const float alpha = hp("alpha", type == "Adamax" ? 2e-3 : 1e-3);
    const float beta1 = hp("beta1", 0.9), beta2 = hp("beta2", 0.999), eps = hp("eps", 1e-8);
    const float init_alpha = float(step.initial_lr);
    if (type == "Adam" || type == "AdamW") {
      const float alpha_t = float(alpha * adam_bias_correction(beta1, beta2, t));
      float decay = 0.f;
      if (type == "AdamW") {
        const float eta_t = init_alpha != 0.0f ? alpha / init_alpha : 1.0f;
        decay = float(eta_t * step.fused_decay);
      }
      k::adam_update(s, n, x, g, state_array("mean"), state_array("var"), alpha_t, beta1, beta2, eps, decay);
    } else if (type == "Adamax") {
      const float alpha_t = float(alpha / (1.0 - std::pow(double(beta1), double(t))));
      k::adamax_update(s, n, x, g, state_array("m"), state_array("u"), alpha_t, beta1, beta2, eps);
    } else if (type == "AMSGRAD") {
      const double correction = h.get_bool("bias_correction", false) ? adam_bias_correction(beta1, beta2, t) : 1.0;
      k::amsgrad_update(s, n, x, g, state_array("m"), state_array("v"), state_array("v_hat"),
                        float(alpha * correction), beta1, beta2, eps);
    } else if (type == "AdaBelief") {
      const double beta1_t = std::pow(double(beta1), double(t));
      const double beta2_t = std::pow(double(beta2), double(t));
      const double correction = std::sqrt(1.0 - beta2_t) / (1.0 - beta1_t);
      const bool rectify = h.get_bool("rectify", false);
      double r_t = 1.0, rho_t = 0.0;
      if (rectify) {
        const double rho_inf = 2.0 / (1.0 - beta2) - 1.0;
        rho_t = rho_inf - 2.0 * t * beta2_t / (1.0 - beta2_t);
        r_t = std::sqrt((rho_t - 4.0) * (rho_t - 2.0) * rho_inf / ((rho_inf - 4.0) * (rho_inf - 2.0) * rho_t));
      }
      const bool sgd_step = rectify && rho_t <= 4.0;
      const float alpha_t = sgd_step ? alpha : float(alpha * r_t * correction);
      const float wd = hp("wd", 0.0);
      const float decay =
          h.get_bool("weight_decouple", false) ? (h.get_bool("fixed_decay", false) ? wd : wd * alpha) : 0.0f;
      float* s_max = h.get_bool("amsgrad", false) ? state_array("s_max") : nullptr;
      k::adabelief_update(s, n, x, g, state_array("mean"), state_array("var"), s_max, alpha_t, beta1, beta2, eps,
                          decay, sgd_step);
    } else {  // AdaBound, AMSBound
      const bool amsbound = type == "AMSBound";
      const bool bias_correction = amsbound ? h.get_bool("bias_correction", false) : true;
      const double correction = bias_correction ? adam_bias_correction(beta1, beta2, t) : 1.0;
      const float alpha_t = float(alpha * correction);
      const float final_lr = hp("final_lr", 0.1) * (init_alpha != 0.0f ? alpha / init_alpha : 1.0f);
      const float gamma = hp("gamma", 0.001);
      const float tf = float(t);
      const float lower = final_lr * (1 - 1 / (gamma * tf + 1));
      // AMSBound keeps upstream nnabla's operator precedence, as the CPU rule does.
      const float upper = amsbound ? final_lr * (1 + 1 / gamma * tf) : final_lr * (1 + 1 / (gamma * tf));
      float* v_hat = amsbound ? state_array("v_hat") : nullptr;
      k::bounded_adam_update(s, n, x, g, state_array(amsbound ? "m" : "mean"), state_array(amsbound ? "v" : "var"),
                             v_hat, alpha_t, beta1, beta2, eps, lower, upper);
    }
  }
}

}  // namespace

bool grad_on_device(Variable& v) { return is_cuda_device(v.grad()->device()); }

bool update_on_device(const SolverStep& step, Variable& param, SolverState& state) {
  if (!has_device_rule(step.type) || !grad_on_device(param)) return false;
  DeviceScope d(param, step.type);
  OpScope scope(d.op);
  run_update(step, param, state, d);
  return true;
}

void weight_decay_on_device(Variable& v, float rate) {
  DeviceScope d(v, "weight_decay");
  OpScope scope(d.op);
  const float* w = v.data()->get<float>(d.device);
  float* g = v.grad()->cast<float>(false, d.device);
  k::add_scaled(d.s, v.size(), g, w, rate);
}

void clip_grad_by_norm_on_device(Variable& v, double norm) {
  DeviceScope d(v, "clip_grad_by_norm");
  OpScope scope(d.op);
  float* g = v.grad()->cast<float>(false, d.device);
  NormScratch sum(1);
  k::sum_of_squares(d.s, v.size(), g, sum.partials(), sum.sum(0));
  k::clip_by_norm(d.s, v.size(), g, sum.sum(0), norm);
}

void scale_grad_on_device(Variable& v, float scale) {
  DeviceScope d(v, "scale_grad");
  OpScope scope(d.op);
  k::scale_values(d.s, v.size(), v.grad()->cast<float>(false, d.device), scale);
}

bool any_grad_on_device(const std::vector<Variable*>& vars, GradCheck check) {
  const k::FloatCheck kind = check == GradCheck::kInf   ? k::FloatCheck::kInf
                             : check == GradCheck::kNan ? k::FloatCheck::kNan
                                                        : k::FloatCheck::kNonFinite;
  std::map<int, std::vector<Variable*>> by_device;
  for (Variable* v : vars) by_device[device_index(v->grad()->device())].push_back(v);
  for (const auto& [id, list] : by_device) {
    DeviceScope d(*list.front(), "check_grad");
    OpScope scope(d.op);
    auto flag_buffer = device_buffer(sizeof(int));
    int* flag = static_cast<int*>(flag_buffer->ptr);
    NN_CUDA_CHECK(cudaMemsetAsync(flag, 0, sizeof(int), d.s));
    for (Variable* v : list) {
      const std::string device = v->grad()->device();
      k::flag_if_any(d.s, v->size(), v->grad()->get<float>(device), kind, flag);
    }
    int found = 0;
    NN_CUDA_CHECK(cudaMemcpyAsync(&found, flag, sizeof(int), cudaMemcpyDeviceToHost, d.s));
    NN_CUDA_CHECK(cudaStreamSynchronize(d.s));
    if (found != 0) return true;
  }
  return false;
}

}  // namespace nn::cuda
