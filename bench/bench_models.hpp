// The benchmark networks (LeNet, MLP, small ResNet, ResNet-20, ResNet-18, deep MLP), built through the libnn graph
// API.
#pragma once
#include <random>
#include <string>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/solvers/solver.hpp"

namespace bench {

struct Model {
  nn::VariablePtr x, label, loss, output;
  nn::Solver::ParameterList params;
};

// A parameter with He-normal values.
nn::VariablePtr param(Model& m, const std::string& name, nn::Shape shape, std::mt19937& rng, bool zero = false);

// conv5x5x16, maxpool2, relu, conv5x5x16, maxpool2, relu, affine 50, relu, affine 10, softmax cross-entropy.
Model lenet(int64_t batch, bool training, std::mt19937& rng);
// 784-1000-1000-10 with ReLU.
Model mlp(int64_t batch, std::mt19937& rng);
// Stem conv 3->32, 4 residual blocks (32, 32->64 stride 2, 64, 64) of 3x3 conv + BN, GAP, affine 10.
Model small_resnet(int64_t batch, bool training, std::mt19937& rng);
// ResNet-18 (torchvision's layout: 7x7/2 stem, 3x3/2 max pooling, 2 basic blocks per stage of 64, 128,
// 256, 512 channels, global average pooling, affine 1000) on 3 x `size` x `size` images.
Model resnet18(int64_t batch, int64_t size, bool training, std::mt19937& rng);
// ResNet-20 for CIFAR (He et al.): 3x3 stem of 16, 3 stages of 3 basic blocks of 16, 32, 64 channels (1x1
// projection shortcuts where the shape changes), global average pooling, affine 10; 3 x 32 x 32 images.
Model resnet20(int64_t batch, bool training, std::mt19937& rng);
// `layers` affine+ReLU layers of `width` units (inference only, for the clear_buffer measurement).
Model deep_mlp(int64_t batch, int layers, int64_t width, std::mt19937& rng);

}  // namespace bench
