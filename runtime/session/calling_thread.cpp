// Which networks run on the calling thread alone, from their flops (calling_thread.hpp).
#include "calling_thread.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "nn/core/adaptive_wait.hpp"

namespace nncli {
namespace {

double size_of(const nn::Shape& s) {
  double n = 1;
  for (int64_t d : s) n *= double(d);
  return n;
}

}  // namespace

double network_flops(const nn::ir::Network& network, const nn::ir::BuiltNetwork& built) {
  double flops = 0;
  auto shape = [&](const std::string& name) -> nn::Shape {
    auto it = built.variables.find(name);
    return it == built.variables.end() ? nn::Shape{} : it->second->shape();
  };
  for (const auto& f : network.functions) {
    if (f.inputs.size() < 2 || f.outputs.empty()) continue;
    const nn::Shape y = shape(f.outputs[0]), a = shape(f.inputs[0]), w = shape(f.inputs[1]);
    if (y.empty() || w.empty()) continue;
    double per_output = 0;  // multiply-adds per output value
    if (f.type == "Convolution" || f.type == "FusedConvolution" || f.type == "DepthwiseConvolution") {
      per_output = size_of(w) / double(w[0]);
    } else if (f.type == "Deconvolution") {  // per input value
      flops += 2 * size_of(w) / double(w[0]) * size_of(a);
    } else if (f.type == "Affine") {
      per_output = double(w[0]);
    } else if ((f.type == "BatchMatmul" || f.type == "MatMul") && a.size() >= 2) {
      per_output = double(f.attrs.get_bool("transpose_a", false) ? a[a.size() - 2] : a.back());
    }
    flops += 2 * per_output * size_of(y);
  }
  return flops;
}

bool run_on_calling_thread(double flops) {
  auto bound = [](const char* name, double mflops) {
    const char* v = std::getenv(name);
    return (v && *v ? std::atof(v) : mflops) * 1e6;
  };
  static const double always = bound("NN_CALLING_THREAD_MFLOPS", 5),
                      busy = bound("NN_CALLING_THREAD_BUSY_MFLOPS", 300);
  return flops < always || (flops < busy && nn::machine_busy());
}

CallingThreadScope::CallingThreadScope(bool on) {
  if (!on || omp_get_max_threads() == 1) return;
  saved_ = omp_get_max_threads();
  omp_set_num_threads(1);
}

CallingThreadScope::~CallingThreadScope() {
  if (saved_ > 0) omp_set_num_threads(saved_);
}

}  // namespace nncli
