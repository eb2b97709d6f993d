// An NNB as an ir::Model (network "nnb", executor "nnb") that libnn runs with nnabla-c-runtime's semantics.
#pragma once
#include "formats/nnb/nnb_file.hpp"
#include "nn/ir/model.hpp"

namespace nn::formats::nnb {

// Parameters are decoded to float (fixed point: int / 2^fp_pos, SIGN: +1/-1; Affine weights back to
// nnabla's layout). Buffer variables of a fixed-point type get a quantization step after the function
// that writes them (round to 2^-fp_pos, saturate), as the c-runtime stores them. Throws (kUnsupported)
// naming every function id that nncli cannot map back.
nn::ir::Model nnb_to_model(const NnbNetwork& network);

}  // namespace nn::formats::nnb
