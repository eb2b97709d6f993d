// CUDA pooling (Max/Average/Sum, global average, unpooling) and BatchNormalization against cpu:float: half, and
// float past one block or with ties; the running statistics BatchNormalization updates in place.
#include "gpu_compare.hpp"

namespace nn::gpu_test {
namespace {

using Ints = std::vector<int64_t>;

// A pooling geometry: input shape, kernel, stride, pad.
struct Geometry {
  Shape x;
  Ints kernel, stride, pad;
};

// 1-D, 2-D and 3-D windows: overlapping, strided, padded, partial border windows (with ignore_border
// false), windows lying wholly in the padding, and a kernel over every axis.
const std::vector<Geometry>& geometries() {
  static const std::vector<Geometry> g = {
      {{2, 3, 9}, {3}, {2}, {1}},
      {{2, 5}, {2}, {1}, {2}},  // the first windows lie in the padding
      {{2, 3, 7, 6}, {2, 2}, {2, 2}, {0, 0}},
      {{2, 3, 7, 6}, {3, 3}, {2, 2}, {1, 1}},
      {{1, 2, 8, 7}, {3, 2}, {1, 3}, {1, 0}},
      {{5, 6}, {2, 4}, {2, 3}, {1, 2}},
      {{2, 2, 5, 4, 6}, {2, 3, 2}, {2, 2, 3}, {1, 0, 1}},
  };
  return g;
}

Attrs pooling_attrs(const Geometry& g, bool ignore_border) {
  return {{"kernel", g.kernel}, {"stride", g.stride}, {"pad", g.pad}, {"ignore_border", ignore_border}};
}

std::string describe(const Geometry& g, bool ignore_border) {
  return "x " + to_string(g.x) + " kernel " + to_string(g.kernel) + " stride " + to_string(g.stride) + " pad " +
         to_string(g.pad) + " ignore_border " + std::to_string(ignore_border);
}

// Multiples of 1/4 in [-2, 2]: many ties (the first maximum must win on both) and exact in fp16.
std::vector<float> tied_values(int64_t n) {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> u(-8, 8);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = float(u(rng)) / 4.f;
  return v;
}

TEST(GpuPoolNorm, MaxPooling) {
  NN_SKIP_WITHOUT_GPU();
  for (const auto& g : geometries()) {
    for (bool ignore_border : {true, false}) {
      SCOPED_TRACE(describe(g, ignore_border));
      GpuCase c{"MaxPooling", pooling_attrs(g, ignore_border), {g.x}, {tied_values(shape_size(g.x))}};
      compare_both(c, 2e-2);
    }
  }
}

TEST(GpuPoolNorm, AveragePooling) {
  NN_SKIP_WITHOUT_GPU();
  for (const auto& g : geometries()) {
    for (bool ignore_border : {true, false}) {
      for (bool including_pad : {true, false}) {
        SCOPED_TRACE(describe(g, ignore_border) + " including_pad " + std::to_string(including_pad));
        Attrs a = pooling_attrs(g, ignore_border);
        a.set("including_pad", including_pad);
        GpuCase c{"AveragePooling", a, {g.x}};
        compare_both(c, 2e-2);
      }
    }
  }
}

TEST(GpuPoolNorm, SumPooling) {
  NN_SKIP_WITHOUT_GPU();
  for (const auto& g : geometries()) {
    for (bool ignore_border : {true, false}) {
      SCOPED_TRACE(describe(g, ignore_border));
      GpuCase c{"SumPooling", pooling_attrs(g, ignore_border), {g.x}};
      compare_both(c, 2e-2);
    }
  }
}

TEST(GpuPoolNorm, GlobalAveragePooling) {
  NN_SKIP_WITHOUT_GPU();
  for (const Shape& x : std::vector<Shape>{{2, 3, 4, 5}, {2, 3}, {2, 3, 4, 2, 3}, {2, 2, 1000}}) {
    SCOPED_TRACE(to_string(x));
    GpuCase c{"GlobalAveragePooling", {}, {x}};
    compare_both(c, 2e-2);
  }
}

TEST(GpuPoolNorm, Unpooling) {
  NN_SKIP_WITHOUT_GPU();
  const std::vector<std::pair<Shape, Ints>> cases = {
      {{2, 3, 4}, {2}}, {{2, 3, 4, 5}, {2, 3}}, {{2, 2, 3, 2, 2}, {2, 1, 3}}, {{3, 4}, {1, 2}}};
  for (const auto& [x, kernel] : cases) {
    SCOPED_TRACE(to_string(x) + " kernel " + to_string(kernel));
    GpuCase c{"Unpooling", {{"kernel", kernel}}, {x}};
    compare_both(c, 2e-2);
  }
}

// BatchNormalization on x with one channel axis: inputs x, beta, gamma, mean, variance (beta/gamma left
// out with no_bias/no_scale), the variance positive.
GpuCase batch_norm_case(const Shape& x, int64_t axis, bool batch_stat, bool no_scale, bool no_bias) {
  Shape p(x.size(), 1);
  p[size_t(axis)] = x[size_t(axis)];
  GpuCase c{"BatchNormalization",
            {{"axes", Ints{axis}},
             {"batch_stat", batch_stat},
             {"no_scale", no_scale},
             {"no_bias", no_bias},
             {"decay_rate", 0.8},
             {"eps", 1e-3}},
            {x}};
  c.values.push_back({});
  std::mt19937 rng(23);
  if (!no_bias) c.shapes.push_back(p), c.values.push_back({});
  if (!no_scale) c.shapes.push_back(p), c.values.push_back(random_values(shape_size(p), rng, 0.5f, 1.5f));
  c.shapes.push_back(p), c.values.push_back({});                                             // running mean
  c.shapes.push_back(p), c.values.push_back(random_values(shape_size(p), rng, 0.5f, 1.5f));  // running var
  c.rtol = 1e-3, c.atol = 5e-4;
  return c;
}

std::string describe_bn(const Shape& x, int64_t axis, bool batch_stat, bool no_scale, bool no_bias) {
  return "x " + to_string(x) + " axis " + std::to_string(axis) + " batch_stat " + std::to_string(batch_stat) +
         " no_scale " + std::to_string(no_scale) + " no_bias " + std::to_string(no_bias);
}

struct BnRun {
  RunResult result;
  std::vector<float> running_mean, running_var;  // the mean/variance inputs after the forwards
};

// run_on with an explicit number of outputs (3: y and the batch statistics), `forwards` forwards before the
// backward, and the running statistics inputs read back after them.
BnRun run_batch_norm(const GpuCase& c, const std::vector<std::vector<float>>& values, const Context& ctx,
                     int n_outputs, int forwards, bool accum) {
  BnRun r;
  RunOptions options;
  options.outputs = n_outputs;
  options.forwards = forwards;
  options.after_forward = [&](const Variables& in) {
    r.running_mean = in[in.size() - 2]->data()->to_vector();
    r.running_var = in[in.size() - 1]->data()->to_vector();
  };
  GpuCase every_grad = c;
  every_grad.grad.clear();
  r.result = run_on(every_grad, values, ctx, accum, options);
  return r;
}

// Running mean/variance after `forwards` batch_stat forwards, outputs (all n_outputs) and grads, on cpu
// and on the case's context.
void compare_batch_norm_state(const GpuCase& c, int n_outputs, int forwards) {
  const auto values = case_values(c);
  for (bool accum : {false, true}) {
    const std::string mode = accum ? " (accum)" : "";
    BnRun cpu = run_batch_norm(c, values, cpu_context(), n_outputs, forwards, accum);
    BnRun gpu = run_batch_norm(c, values, parse_context(c.context), n_outputs, forwards, accum);
    expect_same(gpu.running_mean, cpu.running_mean, c, "running mean" + mode);
    expect_same(gpu.running_var, cpu.running_var, c, "running variance" + mode);
    ASSERT_EQ(gpu.result.outputs.size(), cpu.result.outputs.size());
    for (size_t o = 0; o < cpu.result.outputs.size(); ++o)
      expect_same(gpu.result.outputs[o], cpu.result.outputs[o], c, "output " + std::to_string(o) + mode);
    for (size_t i = 0; i < cpu.result.grads.size(); ++i)
      expect_same(gpu.result.grads[i], cpu.result.grads[i], c, "grad of input " + std::to_string(i) + mode);
  }
}

// Channel axis 1 (with a reduction long enough for several partial sums per channel), the last axis, and a
// 2-D input.
const std::vector<std::pair<Shape, int64_t>>& bn_layouts() {
  static const std::vector<std::pair<Shape, int64_t>> l = {
      {{4, 3, 5, 6}, 1}, {{2, 3, 4, 5}, 3}, {{8, 6}, 1}, {{16, 4, 40, 40}, 1}, {{3, 2, 4}, 0}};
  return l;
}

TEST(GpuPoolNorm, BatchNormalization) {
  NN_SKIP_WITHOUT_GPU();
  for (const auto& [x, axis] : bn_layouts()) {
    for (bool batch_stat : {true, false}) {
      for (int flags = 0; flags < 4; ++flags) {
        const bool no_scale = flags & 1, no_bias = flags & 2;
        SCOPED_TRACE(describe_bn(x, axis, batch_stat, no_scale, no_bias));
        GpuCase c = batch_norm_case(x, axis, batch_stat, no_scale, no_bias);
        if (past_one_block(c)) compare_with_cpu(c);  // the small layouts are the per-op tester's
      }
    }
  }
}

TEST(GpuPoolNorm, BatchNormalizationHalf) {
  NN_SKIP_WITHOUT_GPU();
  for (const auto& [x, axis] : bn_layouts()) {
    for (bool batch_stat : {true, false}) {
      SCOPED_TRACE(describe_bn(x, axis, batch_stat, false, false));
      GpuCase c = as_half(batch_norm_case(x, axis, batch_stat, false, false), 2e-2);
      compare_with_cpu(c);
    }
  }
  GpuCase bare = as_half(batch_norm_case({4, 3, 5, 6}, 1, true, true, true), 2e-2);
  compare_with_cpu(bare);
}

TEST(GpuPoolNorm, BatchNormalizationRunningStatistics) {
  NN_SKIP_WITHOUT_GPU();
  for (const auto& [x, axis] : bn_layouts()) {
    for (int flags = 0; flags < 4; ++flags) {
      const bool no_scale = flags & 1, no_bias = flags & 2;
      SCOPED_TRACE(describe_bn(x, axis, true, no_scale, no_bias));
      GpuCase c = batch_norm_case(x, axis, true, no_scale, no_bias);
      compare_batch_norm_state(c, 1, 2);  // two forwards: the running averages are updated twice
      compare_batch_norm_state(c, 3, 1);  // with the batch mean/variance outputs (and grads arriving there)
    }
    SCOPED_TRACE("half " + describe_bn(x, axis, true, false, false));
    compare_batch_norm_state(as_half(batch_norm_case(x, axis, true, false, false), 2e-2), 3, 2);
  }
  // batch_stat=false leaves them alone, and gives the mean/variance their grads.
  compare_batch_norm_state(batch_norm_case({4, 3, 5, 6}, 1, false, false, false), 1, 1);
}

}  // namespace
}  // namespace nn::gpu_test
