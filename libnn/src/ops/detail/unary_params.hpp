// The arguments of the elementwise ops, read once for the CPU kernels and the CUDA ones that mirror them.
#pragma once
#include "nn/ops/attributes.hpp"

namespace nn::ops {

// Scalar arithmetic (AddScalar, RDivScalar, MaximumScalar ...): `val`.
struct ValParams {
  float val;
  explicit ValParams(const Attrs& a) : val(float(a.get_float("val"))) {}
};
// LeakyReLU and ELU: `alpha`.
struct AlphaParams {
  float alpha;
  explicit AlphaParams(const Attrs& a) : alpha(float(a.get_float("alpha"))) {}
};
struct SeluParams {
  float scale, alpha;
  explicit SeluParams(const Attrs& a) : scale(float(a.get_float("scale"))), alpha(float(a.get_float("alpha"))) {}
};
// SoftPlus: `beta`.
struct BetaParams {
  float beta;
  explicit BetaParams(const Attrs& a) : beta(float(a.get_float("beta"))) {}
};

// HuberLoss: `delta`.
struct DeltaParams {
  float delta;
  explicit DeltaParams(const Attrs& a) : delta(float(a.get_float("delta"))) {}
};

}  // namespace nn::ops
