// Registers the CUDA kernels of the basic elementwise ops (float and half): activations, scalar ops,
// broadcasting arithmetic and SquaredError. The Function templates are in elementwise.hpp.
#include "cuda/ops/elementwise.hpp"

namespace nn::cuda {

void register_elementwise_kernels(OpRegistry& r) {
  add_unary_kernels<k::Unary::kReLU>(r, "ReLU", true);
  add_unary_kernels<k::Unary::kLeakyReLU>(r, "LeakyReLU", true);
  add_unary_kernels<k::Unary::kELU>(r, "ELU", true);
  add_unary_kernels<k::Unary::kSigmoid>(r, "Sigmoid", true);
  add_unary_kernels<k::Unary::kTanh>(r, "Tanh", true);
  add_unary_kernels<k::Unary::kSwish>(r, "Swish", true);
  add_unary_kernels<k::Unary::kGELU>(r, "GELU", true);
  add_unary_kernels<k::Unary::kAddScalar>(r, "AddScalar", true);
  add_unary_kernels<k::Unary::kMulScalar>(r, "MulScalar", true);
  add_unary_kernels<k::Unary::kPowScalar>(r, "PowScalar", true);
  add_unary_kernels<k::Unary::kRSubScalar>(r, "RSubScalar", true);
  add_unary_kernels<k::Unary::kRDivScalar>(r, "RDivScalar", true);
  add_unary_kernels<k::Unary::kIdentity>(r, "Identity", true);
  add_binary_kernels<k::Binary::kAdd>(r, "Add2", true);
  add_binary_kernels<k::Binary::kSub>(r, "Sub2", true);
  add_binary_kernels<k::Binary::kMul>(r, "Mul2", true);
  add_binary_kernels<k::Binary::kDiv>(r, "Div2", true);
  add_binary_kernels<k::Binary::kSquaredError>(r, "SquaredError", true);
}

}  // namespace nn::cuda
