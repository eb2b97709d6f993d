// Builds the benchmark networks with nn::call1 (the same ops the graph builder uses for .nntxt files).
#include "bench_models.hpp"

#include <cmath>

#include "nn/graph/functions.hpp"

namespace bench {
using nn::Attrs;
using nn::call1;
using nn::VariablePtr;

VariablePtr param(Model& m, const std::string& name, nn::Shape shape, std::mt19937& rng, bool zero) {
  auto v = nn::Variable::create(shape, true);
  float* p = v->data()->cast<float>(true);
  int64_t fan_in = shape.size() > 1 ? nn::shape_size(shape) / shape[0] : 1;
  if (shape.size() == 2) fan_in = shape[0];  // affine W is (inputs, outputs)
  std::normal_distribution<float> nd(0.f, std::sqrt(2.f / float(fan_in)));
  for (int64_t i = 0; i < v->size(); ++i) p[i] = zero ? 0.f : nd(rng);
  m.params.push_back({name, v});
  return v;
}

namespace {
VariablePtr conv(Model& m, const std::string& n, VariablePtr x, int64_t cin, int64_t cout, int64_t k,
                 int64_t stride, int64_t pad, std::mt19937& rng, bool bias = true) {
  auto w = param(m, n + "/W", {cout, cin, k, k}, rng);
  std::vector<VariablePtr> in{x, w};
  if (bias) in.push_back(param(m, n + "/b", {cout}, rng, true));
  return call1("Convolution", in,
               Attrs{{"pad", std::vector<int64_t>{pad, pad}},
                     {"stride", std::vector<int64_t>{stride, stride}},
                     {"dilation", std::vector<int64_t>{1, 1}}});
}
VariablePtr affine(Model& m, const std::string& n, VariablePtr x, int64_t in, int64_t out, std::mt19937& rng) {
  return call1("Affine", {x, param(m, n + "/W", {in, out}, rng), param(m, n + "/b", {out}, rng, true)});
}
VariablePtr relu(VariablePtr x) { return call1("ReLU", {x}); }
VariablePtr bn(Model& m, const std::string& n, VariablePtr x, int64_t c, bool training, std::mt19937& rng) {
  auto beta = param(m, n + "/beta", {1, c, 1, 1}, rng, true);
  auto gamma = param(m, n + "/gamma", {1, c, 1, 1}, rng, true);
  gamma->data()->fill(1.0);
  auto mean = nn::Variable::create({1, c, 1, 1}, false);
  auto var = nn::Variable::create({1, c, 1, 1}, false);
  mean->data()->zero();
  var->data()->fill(1.0);
  return call1("BatchNormalization", {x, beta, gamma, mean, var}, Attrs{{"batch_stat", training}});
}
VariablePtr maxpool2(VariablePtr x) {
  return call1("MaxPooling", {x}, Attrs{{"kernel", std::vector<int64_t>{2, 2}}});
}
void finish(Model& m, VariablePtr logits, int64_t batch) {
  m.output = logits;
  m.label = nn::Variable::create({batch, 1}, false);
  m.label->data()->zero();
  m.loss = call1("Mean", {call1("SoftmaxCrossEntropy", {logits, m.label})});
}
}  // namespace

Model lenet(int64_t batch, bool training, std::mt19937& rng) {
  Model m;
  m.x = nn::Variable::create({batch, 1, 28, 28}, false);
  auto h = relu(maxpool2(conv(m, "conv1", m.x, 1, 16, 5, 1, 0, rng)));
  h = relu(maxpool2(conv(m, "conv2", h, 16, 16, 5, 1, 0, rng)));
  h = relu(affine(m, "fc1", h, 256, 50, rng));
  auto logits = affine(m, "fc2", h, 50, 10, rng);
  if (training)
    finish(m, logits, batch);
  else
    m.output = logits;
  return m;
}

Model mlp(int64_t batch, std::mt19937& rng) {
  Model m;
  m.x = nn::Variable::create({batch, 784}, false);
  auto h = relu(affine(m, "fc1", m.x, 784, 1000, rng));
  h = relu(affine(m, "fc2", h, 1000, 1000, rng));
  finish(m, affine(m, "fc3", h, 1000, 10, rng), batch);
  return m;
}

namespace {
// A basic residual block: 3x3 conv + BN + ReLU, 3x3 conv + BN, plus the input (through a 1x1 conv + BN where the
// shape changes), then ReLU.
VariablePtr basic_block(Model& m, const std::string& n, VariablePtr h, int64_t cin, int64_t cout, int64_t stride,
                        bool training, std::mt19937& rng) {
  auto r =
      relu(bn(m, n + "/bn1", conv(m, n + "/conv1", h, cin, cout, 3, stride, 1, rng, false), cout, training, rng));
  r = bn(m, n + "/bn2", conv(m, n + "/conv2", r, cout, cout, 3, 1, 1, rng, false), cout, training, rng);
  auto shortcut = h;
  if (stride != 1 || cin != cout)
    shortcut =
        bn(m, n + "/bns", conv(m, n + "/short", h, cin, cout, 1, stride, 0, rng, false), cout, training, rng);
  return relu(call1("Add2", {r, shortcut}));
}

// Stages of `blocks` basic blocks each, with channels[s] channels (stride 2 at each stage's first block but the
// first stage's), then global average pooling and an affine layer to `classes`.
Model residual_stages(Model m, VariablePtr h, int64_t cin, const std::vector<int64_t>& channels, int blocks,
                      int64_t classes, int64_t batch, bool training, std::mt19937& rng) {
  for (size_t stage = 0; stage < channels.size(); ++stage) {
    for (int block = 0; block < blocks; ++block) {
      const int64_t stride = stage > 0 && block == 0 ? 2 : 1;
      const std::string n = "stage" + std::to_string(stage) + "/block" + std::to_string(block);
      h = basic_block(m, n, h, cin, channels[stage], stride, training, rng);
      cin = channels[stage];
    }
  }
  h = call1("GlobalAveragePooling", {h});
  auto logits = affine(m, "fc", h, cin, classes, rng);
  if (training)
    finish(m, logits, batch);
  else
    m.output = logits;
  return m;
}
}  // namespace

Model small_resnet(int64_t batch, bool training, std::mt19937& rng) {
  Model m;
  m.x = nn::Variable::create({batch, 3, 32, 32}, false);
  auto h = relu(bn(m, "stem/bn", conv(m, "stem", m.x, 3, 32, 3, 1, 1, rng, false), 32, training, rng));
  // Blocks 32, 32->64 stride 2, 64, 64: a first stage of one block, a second of three.
  h = basic_block(m, "block0", h, 32, 32, 1, training, rng);
  h = basic_block(m, "block1", h, 32, 64, 2, training, rng);
  h = basic_block(m, "block2", h, 64, 64, 1, training, rng);
  return residual_stages(std::move(m), h, 64, {64}, 1, 10, batch, training, rng);
}

Model resnet18(int64_t batch, int64_t size, bool training, std::mt19937& rng) {
  Model m;
  m.x = nn::Variable::create({batch, 3, size, size}, false);
  auto h = relu(bn(m, "stem/bn", conv(m, "stem", m.x, 3, 64, 7, 2, 3, rng, false), 64, training, rng));
  h = call1("MaxPooling", {h},
            Attrs{{"kernel", std::vector<int64_t>{3, 3}},
                  {"stride", std::vector<int64_t>{2, 2}},
                  {"pad", std::vector<int64_t>{1, 1}}});
  return residual_stages(std::move(m), h, 64, {64, 128, 256, 512}, 2, 1000, batch, training, rng);
}

Model resnet20(int64_t batch, bool training, std::mt19937& rng) {
  Model m;
  m.x = nn::Variable::create({batch, 3, 32, 32}, false);
  auto h = relu(bn(m, "stem/bn", conv(m, "stem", m.x, 3, 16, 3, 1, 1, rng, false), 16, training, rng));
  return residual_stages(std::move(m), h, 16, {16, 32, 64}, 3, 10, batch, training, rng);
}

Model deep_mlp(int64_t batch, int layers, int64_t width, std::mt19937& rng) {
  Model m;
  m.x = nn::Variable::create({batch, width}, false);
  VariablePtr h = m.x;
  for (int i = 0; i < layers; ++i) h = relu(affine(m, "l" + std::to_string(i), h, width, width, rng));
  m.output = h;
  return m;
}

}  // namespace bench
