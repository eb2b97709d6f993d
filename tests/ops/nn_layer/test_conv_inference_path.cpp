// The inference convolution (gradients off, CPU): Convolution and FusedConvolution run as one oneDNN
// primitive with bias, residual and activation fused and activations kept in oneDNN's layouts. Checked
// against the double reference, through chains whose intermediates stay in a layout, and for weights that
// change between runs.
#include <gtest/gtest.h>

#include <omp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "conv_reference.hpp"
#include "nn/graph/functions.hpp"
#include "nn/graph/grad_mode.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

double activate(double v, const std::string& act, double alpha) {
  if (act == "relu") return v > 0 ? v : 0;
  if (act == "leaky_relu") return v > 0 ? v : alpha * v;
  if (act == "relu6") return std::min(std::max(v, 0.0), 6.0);
  if (act == "sigmoid") return 1 / (1 + std::exp(-v));
  if (act == "tanh") return std::tanh(v);
  if (act == "elu") return v > 0 ? v : alpha * (std::exp(v) - 1);
  if (act == "swish") return v / (1 + std::exp(-v));
  if (act == "hard_sigmoid") return std::min(std::max(alpha * v + 0.5, 0.0), 1.0);
  if (act == "hard_swish") return v * std::min(std::max(v / 6 + 0.5, 0.0), 1.0);
  return v;
}

nn::VariablePtr variable_of(const RefArray& a) {
  auto v = nn::Variable::create(a.shape, false);
  float* p = v->data()->cast<float>(true);
  for (size_t i = 0; i < a.data.size(); ++i) p[i] = float(a.data[i]);
  return v;
}

void expect_close(const std::vector<float>& got, const RefArray& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.data.size()) << what;
  double worst = 0, scale = 1e-6;
  for (double v : want.data) scale = std::max(scale, std::abs(v));
  for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(double(got[i]) - want.data[i]));
  EXPECT_LE(worst / scale, 2e-5) << what;
}

struct Case {
  nn::Shape x, w;
  int64_t group = 1;
  std::vector<int64_t> pad, stride;
  bool bias = true, z = false;
  std::string act;  // "" = plain Convolution
  double alpha = 0.1;
};

std::string describe(const Case& c) {
  return "x " + nn::to_string(c.x) + " w " + nn::to_string(c.w) + " group " + std::to_string(c.group) +
         (c.bias ? " bias" : "") + (c.z ? " z" : "") + " act '" + c.act + "'";
}

// One function in no-grad mode against the reference.
void check_case(const Case& c, std::mt19937& rng) {
  conv_ref::ConvSpec spec;
  spec.pad = c.pad, spec.stride = c.stride, spec.group = c.group;
  const RefArray x = random_input(c.x, rng), w = random_input(c.w, rng), b = random_input({c.w[0]}, rng);
  RefArray want = conv_ref::convolution(x, w, c.bias ? &b : nullptr, spec);
  const RefArray z = random_input(want.shape, rng);
  if (c.z)
    for (size_t i = 0; i < want.data.size(); ++i) want.data[i] += z.data[i];
  for (auto& v : want.data) v = activate(v, c.act, c.alpha);

  nn::Attrs attrs{{"group", c.group}};
  if (!c.pad.empty()) attrs.set("pad", c.pad);
  if (!c.stride.empty()) attrs.set("stride", c.stride);
  const bool fused = !c.act.empty() || c.z;
  if (fused) {
    attrs.set("nonlinearity", c.act.empty() ? std::string("identity") : c.act);
    if (c.act == "leaky_relu" || c.act == "elu") attrs.set("nonlinearity_args", std::vector<double>{c.alpha});
    if (c.act == "hard_sigmoid") attrs.set("nonlinearity_args", std::vector<double>{c.alpha, 0.5});
  }
  auto f = nn::OpRegistry::instance().create(fused ? "FusedConvolution" : "Convolution", attrs, nn::cpu_context());
  std::vector<nn::VariablePtr> in{variable_of(x), variable_of(w)};
  if (c.bias) in.push_back(variable_of(b));
  if (c.z) in.push_back(variable_of(z));
  nn::Variables raw;
  for (auto& v : in) raw.push_back(v.get());
  auto y = nn::Variable::create();
  f->setup(raw, {y.get()});
  nn::NoGradScope no_grad;
  f->forward(raw, {y.get()});
  expect_close(y->data()->to_vector(), want, describe(c));
}

}  // namespace

TEST(ConvInferencePath, EveryActivationWithBiasAndResidual) {
  std::mt19937 rng(5);
  for (const std::string act :
       {"", "relu", "leaky_relu", "relu6", "sigmoid", "tanh", "elu", "swish", "hard_sigmoid", "hard_swish"})
    for (bool z : {false, true})
      for (bool bias : {false, true})
        check_case({{2, 16, 9, 9}, {32, 16, 3, 3}, 1, {1, 1}, {}, bias, z, act}, rng);
}

TEST(ConvInferencePath, Geometries) {
  std::mt19937 rng(6);
  // Each above the path's 1e6-flop floor (smaller ones run the training kernels).
  check_case({{1, 32, 112, 112}, {32, 1, 3, 3}, 32, {1, 1}, {2, 2}, true, false, "relu6"}, rng);  // depthwise
  check_case({{1, 24, 16, 16}, {144, 24, 1, 1}, 1, {}, {}, true, false, "swish"}, rng);      // 1x1, C % 16 != 0
  check_case({{1, 3, 96, 96}, {16, 3, 3, 3}, 1, {1, 1}, {2, 2}, true, false, "relu"}, rng);  // first layer
  check_case({{2, 8, 40, 40}, {16, 4, 3, 3}, 2, {0, 0}, {1, 1}, false, false, ""}, rng);     // grouped
  check_case({{1, 16, 64, 64}, {32, 16, 3, 3}, 1, {}, {2, 2}, true, false, "relu"}, rng);    // last column unread
  check_case({{2, 16, 200}, {16, 16, 5}, 1, {2}, {}, true, true, "tanh"}, rng);              // 1-D
  check_case({{1, 16, 5, 6, 7}, {16, 16, 3, 3, 3}, 1, {1, 1, 1}, {}, true, false, "elu"}, rng);  // 3-D
}

// 3x3 stride-1 layers of 64 channels or more run as Winograd where the CPU has the kernel: within the same
// tolerance of the double-precision direct sums, with the residual and activation applied after the transform.
TEST(ConvInferencePath, WinogradLayersMatchTheReference) {
  std::mt19937 rng(11);
  check_case({{1, 64, 14, 14}, {64, 64, 3, 3}, 1, {1, 1}, {}, true, true, "relu"}, rng);
  check_case({{2, 96, 9, 11}, {128, 96, 3, 3}, 1, {1, 1}, {}, false, false, ""}, rng);
  check_case({{1, 64, 7, 7}, {64, 64, 3, 3}, 1, {0, 0}, {}, true, false, "relu6"}, rng);  // no padding
  check_case({{1, 32, 16, 16}, {32, 32, 3, 3}, 1, {1, 1}, {}, true, true, "relu"},
             rng);  // ResNet-20's second stage
}

// A Winograd layer (blocked dnnl16 output) read by a direct stride-2 layer (channels-last input): the array
// converts between the two oneDNN layouts in one reorder, and its values are the reference's.
TEST(ConvInferencePath, WinogradOutputFeedsAChannelsLastLayer) {
  std::mt19937 rng(12);
  const RefArray x = random_input({1, 64, 10, 10}, rng), w1 = random_input({64, 64, 3, 3}, rng),
                 w2 = random_input({32, 64, 3, 3}, rng);
  conv_ref::ConvSpec same, down;
  same.pad = down.pad = {1, 1};
  down.stride = {2, 2};
  const RefArray h = conv_ref::convolution(x, w1, nullptr, same);
  const RefArray want = conv_ref::convolution(h, w2, nullptr, down);
  auto vx = variable_of(x), vw1 = variable_of(w1), vw2 = variable_of(w2);
  const std::vector<int64_t> one{1, 1}, two{2, 2};
  auto vh = nn::call1("Convolution", {vx, vw1}, {{"pad", one}}, nn::cpu_context());
  auto vy = nn::call1("Convolution", {vh, vw2}, {{"pad", one}, {"stride", two}}, nn::cpu_context());
  {
    nn::NoGradScope no_grad;
    vy->forward();
  }
  expect_close(vy->data()->to_vector(), want, "stride-2 layer after a Winograd layer");
  expect_close(vh->data()->to_vector(), h, "Winograd output read plain");
}

// A layer below the inference path's floor runs the training kernels' oneDNN primitive, which keeps its
// reordered weights while their content version stays: a change of the weights still reaches the output.
TEST(ConvInferencePath, SmallLayerFollowsChangedWeights) {
  std::mt19937 rng(13);
  const RefArray x = random_input({1, 8, 10, 10}, rng), w = random_input({8, 8, 3, 3}, rng);
  auto vx = variable_of(x), vw = variable_of(w);
  auto vy = nn::call1("Convolution", {vx, vw}, {{"pad", std::vector<int64_t>{1, 1}}}, nn::cpu_context());
  conv_ref::ConvSpec same;
  same.pad = {1, 1};
  for (double scale : {1.0, -3.0}) {
    if (scale != 1.0) {
      float* p = vw->data()->cast<float>();
      for (int64_t i = 0; i < vw->size(); ++i) p[i] = float(w.data[size_t(i)] * scale);
    }
    RefArray ws = w;
    for (auto& v : ws.data) v *= scale;
    {
      nn::NoGradScope no_grad;
      vy->forward();
      vy->forward();  // the second call reads the kept copy
    }
    expect_close(vy->data()->to_vector(), conv_ref::convolution(x, ws, nullptr, same),
                 "weights scaled by " + std::to_string(scale));
  }
}

// Batches of several chunks per thread run as one-thread primitives over chunks of the batch taken by the team
// in turn (on a machine with more than one thread): each chunk reads and writes at its own offset.
TEST(ConvInferencePath, BatchChunksMatchTheReference) {
  std::mt19937 rng(8);
  check_case({{8, 16, 12, 12}, {32, 16, 3, 3}, 1, {1, 1}, {}, true, true, "relu"}, rng);         // residual
  check_case({{12, 32, 20, 20}, {32, 1, 3, 3}, 32, {1, 1}, {2, 2}, true, false, "relu6"}, rng);  // depthwise
  check_case({{16, 24, 10, 10}, {40, 24, 1, 1}, 1, {}, {}, false, true, ""}, rng);     // 1x1, C % 16 != 0
  check_case({{8, 24, 14, 14}, {40, 24, 1, 1}, 1, {}, {}, true, true, "swish"}, rng);  // swish after each chunk
}

// At batch 1 a swish layer's team runs one-thread primitives over bands of output rows, each reading the input
// rows its windows cover (padding only at the image's edges): odd row counts, strides, 5x5 windows, a residual.
TEST(ConvInferencePath, RowBandsMatchTheReference) {
  std::mt19937 rng(13);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(2);
  // each above the team's 1e6-flop floor
  check_case({{1, 96, 23, 23}, {96, 1, 5, 5}, 96, {2, 2}, {}, true, false, "swish"}, rng);       // depthwise 5x5
  check_case({{1, 96, 57, 57}, {96, 1, 3, 3}, 96, {1, 1}, {2, 2}, true, false, "swish"}, rng);   // stride 2
  check_case({{1, 24, 23, 27}, {80, 24, 1, 1}, 1, {}, {}, true, true, "swish"}, rng);            // residual
  check_case({{1, 16, 45, 45}, {32, 16, 3, 3}, 1, {0, 0}, {2, 2}, false, false, "swish"}, rng);  // no padding
  omp_set_num_threads(saved);
}

// One-thread primitives apply swish after the convolution, over its output (activation_after): after the
// residual sum, and over a blocked or channels-last output alike.
TEST(ConvInferencePath, OneThreadPrimitivesApplySwishAfter) {
  std::mt19937 rng(12);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  check_case({{1, 32, 56, 56}, {32, 1, 3, 3}, 32, {1, 1}, {}, true, true, "swish"}, rng);    // depthwise
  check_case({{1, 24, 16, 16}, {144, 24, 1, 1}, 1, {}, {}, true, false, "swish"}, rng);      // 1x1
  check_case({{1, 64, 14, 14}, {64, 64, 3, 3}, 1, {1, 1}, {}, false, false, "swish"}, rng);  // Winograd
  omp_set_num_threads(saved);
}

// Two convolutions in a graph: the first's output stays in oneDNN's layout for the second, and a plain
// reader of the intermediate (to_vector) still sees its values in plain order.
TEST(ConvInferencePath, ChainKeepsLayoutAndPlainReadersSeeValues) {
  std::mt19937 rng(7);
  const RefArray x = random_input({1, 32, 12, 12}, rng), w1 = random_input({32, 32, 3, 3}, rng),
                 w2 = random_input({48, 32, 1, 1}, rng);
  conv_ref::ConvSpec same;
  same.pad = {1, 1};
  const RefArray h = conv_ref::convolution(x, w1, nullptr, same);
  const RefArray want = conv_ref::convolution(h, w2, nullptr, {});
  auto conv = [](const nn::VariablePtr& in, const nn::VariablePtr& w, const nn::Attrs& a) {
    return nn::call1("Convolution", {in, w}, a, nn::cpu_context());
  };
  auto vx = variable_of(x), vw1 = variable_of(w1), vw2 = variable_of(w2);
  auto vh = conv(vx, vw1, nn::Attrs{{"pad", std::vector<int64_t>{1, 1}}});
  auto vy = conv(vh, vw2, nn::Attrs{});
  {
    nn::NoGradScope no_grad;
    vy->forward();
  }
  expect_close(vy->data()->to_vector(), want, "second convolution");
  expect_close(vh->data()->to_vector(), h, "intermediate read plain");
  // Weights change between runs (a monitor between training steps): the reordered copy follows them.
  float* p = vw2->data()->cast<float>();
  for (int64_t i = 0; i < vw2->size(); ++i) p[i] *= -2.f;
  RefArray w2x = w2;
  for (auto& v : w2x.data) v *= -2.0;
  {
    nn::NoGradScope no_grad;
    vy->forward();
  }
  expect_close(vy->data()->to_vector(), conv_ref::convolution(h, w2x, nullptr, {}), "after the weights changed");
}

// A fused forward with gradients off, then a backward: the stages run again for their intermediates.
TEST(ConvInferencePath, BackwardAfterFusedForwardRecomputes) {
  std::mt19937 rng(8);
  const RefArray x = random_input({1, 16, 6, 6}, rng), w = random_input({16, 16, 3, 3}, rng);
  auto f = nn::OpRegistry::instance().create(
      "FusedConvolution", nn::Attrs{{"pad", std::vector<int64_t>{1, 1}}, {"nonlinearity", std::string("tanh")}},
      nn::cpu_context());
  auto vx = variable_of(x), vw = variable_of(w);
  vx->set_need_grad(true), vw->set_need_grad(true);
  auto y = nn::Variable::create();
  f->setup({vx.get(), vw.get()}, {y.get()});
  {
    nn::NoGradScope no_grad;
    f->forward({vx.get(), vw.get()}, {y.get()});
  }
  y->grad()->fill(1.0);
  f->backward({vx.get(), vw.get()}, {y.get()}, {true, true}, {false, false});
  // d/dx of sum(tanh(conv)) at a corner sample against a central difference of the reference.
  conv_ref::ConvSpec same;
  same.pad = {1, 1};
  auto loss = [&](const RefArray& xx) {
    double s = 0;
    for (double v : conv_ref::convolution(xx, w, nullptr, same).data) s += std::tanh(v);
    return s;
  };
  RefArray xp = x, xm = x;
  xp.data[0] += 1e-4, xm.data[0] -= 1e-4;
  EXPECT_NEAR(vx->grad()->to_vector()[0], (loss(xp) - loss(xm)) / 2e-4, 1e-3);
}

// Functions after a convolution read its channels-last output directly with gradients off (MaxPooling,
// GlobalAveragePooling, channel Concatenate, a squeeze-excite Mul2, Add2, the unary functions, whose output
// a MaxPooling reads channels-last again); each gives what it gives on the
// plain path (gradients on).
TEST(ConvInferencePath, ChannelsLastReadersMatchThePlainPath) {
  std::mt19937 rng(9);
  auto v = [&](const nn::Shape& s) { return variable_of(random_input(s, rng)); };
  // both convolutions above 1e6 flops; the concatenation (2x52x48x48) above the threshold of threads; b's
  // 20 channels leave a remainder after the kernels' 8- and 16-channel steps
  auto x = v({2, 16, 48, 48}), wa = v({32, 16, 3, 3}), wb = v({20, 16, 1, 1});
  const nn::Attrs same{{"pad", std::vector<int64_t>{1, 1}}};
  // c: 76 channels (a 64-channel block of sums and a remainder) over 3 images, its pooling above the threshold
  // of threads, so that one thread's channels start inside the second image
  auto x3 = v({3, 8, 36, 36}), wc = v({76, 8, 3, 3});
  auto a = nn::call1("Convolution", {x, wa}, same, nn::cpu_context());
  auto c = nn::call1("Convolution", {x3, wc}, same, nn::cpu_context());
  // d: the same channels over one larger image, whose pooling splits among threads by pixels
  auto x1 = v({1, 8, 60, 60});
  auto d = nn::call1("Convolution", {x1, wc}, same, nn::cpu_context());
  auto b = nn::call1("Convolution", {x, wb}, {}, nn::cpu_context());
  std::vector<nn::VariablePtr> outs{
      nn::call1("MaxPooling", {a},
                {{"kernel", std::vector<int64_t>{3, 3}},
                 {"stride", std::vector<int64_t>{2, 2}},
                 {"ignore_border", false},
                 {"pad", std::vector<int64_t>{1, 1}}}),
      nn::call1("MaxPooling", {b}, {{"kernel", std::vector<int64_t>{2, 2}}}),
      nn::call1("GlobalAveragePooling", {a}),
      nn::call1("GlobalAveragePooling", {c}),
      nn::call1("GlobalAveragePooling", {d}),
      nn::call1("Concatenate", {a, b}, {{"axis", int64_t(1)}}),
      nn::call1("Mul2", {b, nn::call1("GlobalAveragePooling", {b})}),
      nn::call1("Add2", {b, b}),
      nn::call1("MulScalar", {b}, {{"val", 0.5}}),
      nn::call1("MaxPooling", {nn::call1("ReLU", {a})}, {{"kernel", std::vector<int64_t>{2, 2}}}),
      nn::call1("AveragePooling", {a},
                {{"kernel", std::vector<int64_t>{3, 3}},
                 {"stride", std::vector<int64_t>{2, 2}},
                 {"pad", std::vector<int64_t>{1, 1}},
                 {"including_pad", false}}),
      nn::call1("AveragePooling", {d}, {{"kernel", std::vector<int64_t>{2, 2}}}),
      nn::call1("SumPooling", {b}, {{"kernel", std::vector<int64_t>{2, 2}}, {"ignore_border", false}}),
  };
  std::vector<std::vector<float>> plain;
  nn::forward_all(outs);
  for (auto& o : outs) plain.push_back(o->data()->to_vector());
  {
    nn::NoGradScope no_grad;
    nn::forward_all(outs);
  }
  const char* names[] = {"MaxPooling",
                         "MaxPooling 2x2",
                         "GlobalAveragePooling",
                         "GlobalAveragePooling 76 channels",
                         "GlobalAveragePooling one image",
                         "Concatenate",
                         "Mul2",
                         "Add2",
                         "MulScalar",
                         "ReLU, then MaxPooling",
                         "AveragePooling padded, without the pads",
                         "AveragePooling 2x2 one image",
                         "SumPooling partial windows"};
  for (size_t i = outs.size() - 3; i < outs.size(); ++i)  // the poolings that average or sum stayed channels-last
    EXPECT_EQ(outs[i]->data()->device(), "dnnl_nxc") << names[i];
  for (size_t i = 0; i < outs.size(); ++i) {
    RefArray want{outs[i]->shape(), std::vector<double>(plain[i].begin(), plain[i].end())};
    expect_close(outs[i]->data()->to_vector(), want, names[i]);
  }
}

// DenseNet's dense layer: a concatenation of a plain map (a pooling output) with a convolution's channels-last
// one, BatchNormalization with running statistics, ReLU, then a convolution. Without gradients the chain stays
// channels-last (no reorder to the plain layout between the convolutions) and gives the plain path's values.
TEST(ConvInferencePath, DenseLayerStaysChannelsLast) {
  std::mt19937 rng(11);
  auto v = [&](const nn::Shape& s) { return variable_of(random_input(s, rng)); };
  auto x = v({1, 16, 40, 40}), w0 = v({24, 16, 3, 3}), w1 = v({20, 40, 1, 1});
  auto pooled = nn::call1("AveragePooling", {x}, {{"kernel", std::vector<int64_t>{1, 1}}});  // plain layout
  auto a = nn::call1("Convolution", {x, w0}, {{"pad", std::vector<int64_t>{1, 1}}}, nn::cpu_context());
  auto joined = nn::call1("Concatenate", {pooled, a}, {{"axis", int64_t(1)}});
  auto beta = v({1, 40, 1, 1}), gamma = v({1, 40, 1, 1}), mean = v({1, 40, 1, 1}), var = v({1, 40, 1, 1});
  float* vp = var->data()->cast<float>();
  for (int c = 0; c < 40; ++c) vp[c] = std::abs(vp[c]) + 0.5f;
  auto normed = nn::call1("BatchNormalization", {joined, beta, gamma, mean, var},
                          {{"axes", std::vector<int64_t>{1}}, {"batch_stat", false}});
  auto out = nn::call1("Convolution", {nn::call1("ReLU", {normed}), w1}, {}, nn::cpu_context());
  nn::forward_all({out});
  auto as_ref = [](const nn::VariablePtr& var) {
    const std::vector<float> values = var->data()->to_vector();
    return RefArray{var->shape(), std::vector<double>(values.begin(), values.end())};
  };
  const RefArray plain_out = as_ref(out), plain_normed = as_ref(normed);
  {
    nn::NoGradScope no_grad;
    nn::forward_all({out});
    EXPECT_EQ(joined->data()->device(), "dnnl_nxc");
    EXPECT_EQ(normed->data()->device(), "dnnl_nxc");
  }
  expect_close(normed->data()->to_vector(), plain_normed, "BatchNormalization");
  expect_close(out->data()->to_vector(), plain_out, "dense layer");
}

namespace {
// On-CPU nanoseconds of this process's threads other than the calling one (schedstat's first field), -1 where
// the kernel does not say.
int64_t other_threads_cpu_ns() {
  const std::string self = std::to_string(syscall(SYS_gettid));
  if (!std::filesystem::exists("/proc/self/task/" + self + "/schedstat")) return -1;
  int64_t total = 0;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream stat(task.path() / "schedstat");
    int64_t on_cpu = 0;
    if (task.path().filename() != self && stat >> on_cpu) total += on_cpu;
  }
  return total;
}
}  // namespace

// Layout reorders (plain, dnnl16, channels last) first made while the OpenMP team had two threads run on the
// calling thread alone once the team is one thread (a small network run on the calling thread): oneDNN's reorders
// keep the thread count they were made with, and resnet20 at batch 1 woke the sleeping worker ~11 times per pass.
TEST(ConvInferencePath, LayoutReorderOfATeamOfOneWakesNoWorker) {
  std::mt19937 rng(13);
  check_case({{1, 16, 16, 16}, {16, 16, 3, 3}, 1, {1, 1}, {}, true, false, "relu"}, rng);  // registers the layouts
  const int saved = omp_get_max_threads();
  // resnet20's activations, from plain into each layout, between them, and back
  auto reorder_one = [&] {
    for (const nn::Shape& shape : {nn::Shape{1, 16, 32, 32}, nn::Shape{1, 32, 16, 16}, nn::Shape{1, 64, 8, 8}})
      for (const char* from : {"dnnl16", "dnnl_nxc"}) {
        const char* to = std::string(from) == "dnnl16" ? "dnnl_nxc" : "dnnl16";
        nn::NdArray a(shape);
        std::fill_n(a.cast<float>(true), a.size(), 1.f);
        a.cast_raw(nn::ArrayKey{nn::DType::kFloat32, from});  // the only copy is now in `from`
        a.get_raw(nn::ArrayKey{nn::DType::kFloat32, to});
        a.cast_raw(nn::ArrayKey{nn::DType::kFloat32, to});
        a.get<float>();
      }
  };
  omp_set_num_threads(2);
  reorder_one();  // made for two threads: the workers exist from here on
#pragma omp parallel
  { (void)omp_get_thread_num(); }  // the team started even where oneDNN ran the first reorder on one thread
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the workers' spin is over: they sleep
  const int64_t before = other_threads_cpu_ns();
  omp_set_num_threads(1);
  for (int i = 0; i < 20; ++i) reorder_one();
  const int64_t after = other_threads_cpu_ns();
  omp_set_num_threads(saved);
  if (before < 0) GTEST_SKIP() << "this kernel keeps no schedstat";
  EXPECT_EQ(after, before) << "a worker ran during one-thread reorders";
}
