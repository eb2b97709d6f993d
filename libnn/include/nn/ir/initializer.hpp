// Parameter initializers named as in .nntxt (Variable.initializer.type) and generator variables.
#pragma once
#include <string>

#include "nn/core/error.hpp"
#include "nn/core/ndarray.hpp"
#include "nn/core/random.hpp"
#include "nn/core/shape.hpp"

namespace nn {

// Fills out[0, shape_size(shape)) for an initializer type with multiplier m (docs/nnp_format.md#initializers):
//   Normal N(0, m), Uniform U(-m, m), Constant m, Range 0, 1, 2, ... along the last axis times m,
//   Normal{Affine,Convolution,CLConv}{He,HeForward,HeBackward,Glorot} and Uniform{...}Glorot with nnabla's
//   fan-in/fan-out rules; any other type (including "") gives zeros.
// Samples are drawn as numpy's legacy RandomState does from the same MT19937 stream (53-bit doubles,
// polar Box-Muller normals in pairs), so a given seed gives bit-identical values on every run.
void initialize_parameter(const std::string& type, double multiplier, const Shape& shape, float* out,
                          RandomEngine& rng);
// The same, into a float32 array of that shape.
void initialize_parameter(const std::string& type, double multiplier, NdArray& out, RandomEngine& rng);

// Whether type is one of the initializer names above (unknown names initialize to zeros).
bool is_known_initializer(const std::string& type);

// The scale of an initializer type for a parameter shape before the multiplier: the standard deviation of
// Normal* types, the limit of Uniform* types, 1 for Normal/Uniform/Constant/Range, 0 for unknown types.
double initializer_scale(const std::string& type, const Shape& shape);

// numpy-compatible draws from an MT19937 stream: a double in [0, 1) from two 32-bit outputs.
double random_double01(RandomEngine& rng);

}  // namespace nn
