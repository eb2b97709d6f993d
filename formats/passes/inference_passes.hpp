// Inference graph passes on ir::Model (BatchNormalization folding, Identity removal, Swish and ReLU6 fusion);
// the model stays the source of truth and each pass only rewrites inference networks.
#pragma once
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats {

// Folds BatchNormalization with running statistics (batch_stat false, one axis = the channel axis) into the
// Convolution or Affine producing its input, when that input feeds nothing else: new parameters
// '<function>/folded_W' and '<function>/folded_b' (the originals stay for other networks) with
// W' = W * s, b' = (b - mean) * s + beta, s = gamma / sqrt(variance + eps). One line per fold.
std::vector<std::string> fold_batch_normalization(ir::Model& model);

// Removes Identity functions whose output is not one of the model's named inputs or outputs: consumers
// read the Identity's input instead. One line per removal.
std::vector<std::string> remove_identity(ir::Model& model);

// Transposes that cancel through functions indifferent to the layout go: a Transpose whose output only one
// element-wise function, Concatenate, Softmax, BatchNormalization, Pad or Mean/Sum reads (every other input of
// that function the same Transpose's output or a parameter, transposed back once) moves after that function, its
// axes remapped; consecutive Transposes merge into one or cancel; a Transpose of a parameter becomes a
// transposed parameter ('<parameter>/transposed<axes>'). So the NHWC<->NCHW pairs tf2onnx writes around each
// convolution leave the layers in between in NCHW, and only the graph's input and output Transposes remain.
// A network keeps its original functions unless fewer Transposes remain. One line per network changed.
std::vector<std::string> fold_transposes(ir::Model& model);

// Pow2(x, e) whose exponent e is a parameter holding one value (ONNX Pow's constant broadcast to x's shape, as
// in LayerNorm exported by PyTorch) becomes PowScalar(x, that value), which squares by a product.
std::vector<std::string> scalar_exponents(ir::Model& model);

// LayerNorm as PyTorch and Hugging Face exporters write it before opset 17 (after import: Mean over trailing axes
// with kept dims, Sub2, PowScalar(2) or Mul2 of the difference by itself, Mean, AddScalar or Add2 of a constant
// eps, PowScalar(0.5) and Div2, or PowScalar(-0.5) and Mul2; then optionally Mul2 by gamma and Add2 of beta,
// parameters over the normalized axes), no intermediate read elsewhere, becomes one LayerNormalization (batch_axis
// the axes before them). Parameters of another shape are copied to '<function>/gamma' and '<function>/beta'.
std::vector<std::string> fuse_layer_norm(ir::Model& model);

// x * Sigmoid(x) (Sigmoid feeding only that Mul2: SiLU as PyTorch exports it) becomes one Swish.
std::vector<std::string> fuse_swish(ir::Model& model);

// MaximumScalar(0) then MinimumScalar(6) (either order; ONNX Clip(0, 6) as imported) becomes one ReLU6.
std::vector<std::string> fuse_relu6(ir::Model& model);

// Convolution, then optionally Add2 with a residual of the same shape, then optionally an activation
// (ReLU, ReLU6, Sigmoid, Tanh, LeakyReLU, ELU, Swish, HardSigmoid; ONNX HardSigmoid and HardSwish as imported:
// MulScalar, AddScalar, MinimumScalar(1), MaximumScalar(0) [, Mul2 by the convolution's output]), with nothing
// else reading the intermediates, becomes one FusedConvolution, which the CPU runs as one oneDNN primitive.
// swish, hard_sigmoid (args alpha, beta) and hard_swish are nncli's extensions of FusedConvolution's
// nonlinearities: this pass is for running in process, not for files other tools read.
std::vector<std::string> fuse_convolution_epilogues(ir::Model& model);

// A channel concatenation (Concatenate on axis 1) that only convolutions read, each directly or through a
// MaxPooling of its own, goes: each such convolution runs once per part (its weights' slice of input channels,
// new parameters '<function>/part<i>/W', underscores appended to names a file already uses) as FusedConvolutions,
// each part after the first summing into the previous part's output, the last applying the nonlinearity; a
// MaxPooling runs once per part. Channels-last concatenation copies every pixel (squeezenet's eight took 0.16 ms
// of 1.8 at batch 1). For running in process, like the fusion above.
std::vector<std::string> split_concatenated_convolutions(ir::Model& model);

// Every pass above, in order; lines "<pass>: <change>". Networks an optimizer trains are left alone.
std::vector<std::string> optimize_for_inference(ir::Model& model);

// Drops parameters no network uses any more (after folding, for writing the optimized model).
std::vector<std::string> prune_unused_parameters(ir::Model& model);

}  // namespace nn::formats
