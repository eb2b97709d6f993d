// Structural checks of a loaded model that hold for every file nncli reads or writes.
#pragma once
#include "nn/ir/model.hpp"

namespace nn::formats {

// Throws nn::Error (kInvalid) naming the network, function and variable when
//  - a variable is produced by two functions (the second producer is named),
//  - a declared variable shape is negative beyond the batch axis or absurdly large,
//  - a parameter's value count differs from the shape a network declares for it.
// Run where a model enters (load_model), so convert never writes what nncli would refuse to run.
void validate_model(const ir::Model& model);

}  // namespace nn::formats
