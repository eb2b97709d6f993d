// CUDA shape ops and reductions against cpu:float: the half kernels of Split, Stack, Flip, Broadcast(To), Pad,
// Max/Min, Prod, Reshape/Transpose/Slice/Concatenate/Sum/Mean, and float cases past one block or with crafted
// values (ties, zeros); RandomFlip/RandomShift past one block.
#include "gpu_compare.hpp"

namespace nn::gpu_test {
namespace {

using Ints = std::vector<int64_t>;
using Str = std::string;

// Data movement in fp16 is exact up to the rounding of the inputs.
constexpr double kExact = 1e-3;

// Values exact in fp16 (multiples of 1/64 in [-levels/64, levels/64]); few levels give many ties.
std::vector<float> exact_values(const Shape& s, int levels, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(-levels, levels);
  std::vector<float> v(size_t(shape_size(s)));
  for (auto& x : v) x = float(u(rng)) / 64.f;
  return v;
}

TEST(GpuShape, Split) {
  NN_SKIP_WITHOUT_GPU();
  for (int64_t axis : {0, 1, 2, -1, -3}) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    compare_both({"Split", {{"axis", axis}}, {{3, 4, 5}}}, kExact);
  }
  compare_both({"Split", {}, {{1, 7}}}, kExact);
  compare_both({"Split", {{"axis", int64_t(0)}}, {{4}}}, kExact);
}

TEST(GpuShape, Stack) {
  NN_SKIP_WITHOUT_GPU();
  for (int64_t axis : {0, 1, 2, -1, -2}) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    compare_both({"Stack", {{"axis", axis}}, {{2, 3}, {2, 3}, {2, 3}}}, kExact);
  }
  compare_both({"Stack", {}, {{4}}}, kExact);
  GpuCase partial{"Stack", {{"axis", int64_t(1)}}, {{2, 3, 4}, {2, 3, 4}, {2, 3, 4}}, {}, {true, false, true}};
  compare_both(partial, kExact);
}

TEST(GpuShape, Flip) {
  NN_SKIP_WITHOUT_GPU();
  compare_both({"Flip", {}, {{3, 4, 5}}}, kExact);
  compare_both({"Flip", {{"axes", Ints{0, 2}}}, {{3, 4, 5}}}, kExact);
  compare_both({"Flip", {{"axes", Ints{-2}}}, {{3, 4, 5}}}, kExact);
  compare_both({"Flip", {{"axes", Ints{0, 1, 2, 3}}}, {{2, 1, 3, 4}}}, kExact);
  compare_both({"Flip", {{"axes", Ints{0}}}, {{7}}}, kExact);
}

TEST(GpuShape, Broadcast) {
  NN_SKIP_WITHOUT_GPU();
  compare_both({"Broadcast", {{"shape", Ints{3, 4, 5}}}, {{1, 4, 1}}}, 1e-2);
  compare_both({"Broadcast", {{"shape", Ints{3, 4}}}, {{3, 1}}}, 1e-2);
  compare_both({"Broadcast", {{"shape", Ints{2, 3, 4}}}, {{2, 3, 4}}}, 1e-2);
  compare_both({"Broadcast", {{"shape", Ints{2, 1, 6}}}, {{1, 1, 1}}}, 1e-2);
  compare_both({"Broadcast", {{"shape", Ints{2, 3}}}, {{}}}, 1e-2);        // a scalar input
  compare_both({"Broadcast", {{"shape", Ints{4, 300}}}, {{4, 1}}}, 1e-2);  // more repeats than threads
}

TEST(GpuShape, BroadcastTo) {
  NN_SKIP_WITHOUT_GPU();
  compare_both({"BroadcastTo", {}, {{2, 3, 4}, {3, 4}}}, 1e-2);
  compare_both({"BroadcastTo", {{"axis", int64_t(1)}}, {{2, 3, 4}, {3}}}, 1e-2);
  compare_both({"BroadcastTo", {{"axis", int64_t(0)}}, {{2, 3, 4}, {2, 3}}}, 1e-2);
  compare_both({"BroadcastTo", {{"axis", int64_t(1)}}, {{2, 3, 4, 2}, {3, 4}}}, 1e-2);
  compare_both({"BroadcastTo", {}, {{2, 3}, {2, 3}}}, 1e-2);
  GpuCase only_y{"BroadcastTo", {}, {{2, 3, 4}, {4}}, {}, {false, true}};
  compare_both(only_y, 1e-2);
  GpuCase only_x{"BroadcastTo", {}, {{2, 3, 4}, {4}}, {}, {true, false}};
  compare_both(only_x, 1e-2);
}

TEST(GpuShape, Pad) {
  NN_SKIP_WITHOUT_GPU();
  const Str modes[] = {"constant", "reflect", "repeat"};
  for (const Str& mode : modes) {
    SCOPED_TRACE(mode);
    // Backward sums several output grads into an input element for reflect and repeat.
    compare_both({"Pad", {{"pad_width", Ints{1, 2}}, {"mode", mode}}, {{2, 3, 4}}}, 1e-2);
    compare_both({"Pad", {{"pad_width", Ints{2, 1, 0, 3}}, {"mode", mode}}, {{2, 3, 4}}}, 1e-2);
    compare_both({"Pad", {{"pad_width", Ints{1, 1, 2, 2, 3, 3}}, {"mode", mode}}, {{2, 3, 4}}}, 1e-2);
    compare_both({"Pad", {{"pad_width", Ints{7, 5}}, {"mode", mode}}, {{2, 3}}}, 1e-2);  // wider than the axis
    compare_both({"Pad", {{"pad_width", Ints{0, 0, 2, 2}}, {"mode", mode}}, {{2, 1, 3, 4}}}, 1e-2);
  }
  compare_both({"Pad", {{"pad_width", Ints{2, 3}}, {"constant_value", 0.75}}, {{3, 4}}}, 1e-2);
  compare_both({"Pad", {{"pad_width", Ints{3, 1}}, {"mode", Str("reflect")}}, {{2, 1}}}, 1e-2);  // length-1 axis
  compare_both({"Pad", {{"pad_width", Ints{}}}, {{2, 3}}}, 1e-2);
}

TEST(GpuShape, MaxMin) {
  NN_SKIP_WITHOUT_GPU();
  const std::vector<Attrs> attr_sets = {
      {{"axes", Ints{1}}},
      {{"axes", Ints{0, 2}}, {"keep_dims", true}},
      {},
      {{"axes", Ints{-1}}, {"with_index", true}},
      {{"axes", Ints{0, -1}}, {"keep_dims", true}, {"with_index", true}},
      {{"axes", Ints{1}}, {"only_index", true}},
      {{"with_index", true}, {"only_index", true}},
  };
  for (const char* op : {"Max", "Min"}) {
    for (size_t a = 0; a < attr_sets.size(); ++a) {
      SCOPED_TRACE(std::string(op) + " attribute set " + std::to_string(a));
      const Shape shape{3, 4, 5};
      compare_both({op, attr_sets[a], {shape}, {exact_values(shape, 64, 7)}}, kExact);
      compare_both({op, attr_sets[a], {shape}, {exact_values(shape, 2, 8)}}, kExact);  // many ties: the first wins
    }
    SCOPED_TRACE(std::string(op) + " long rows");
    const Shape wide{2, 3000};
    compare_both({op, {{"axes", Ints{1}}, {"with_index", true}}, {wide}, {exact_values(wide, 3, 9)}}, kExact);
    compare_with_cpu({op, {{"axes", Ints{0}}, {"with_index", true}}, {{3000, 3}}});
  }
}

TEST(GpuShape, Prod) {
  NN_SKIP_WITHOUT_GPU();
  const std::vector<Attrs> attr_sets = {
      {{"axes", Ints{1}}}, {{"axes", Ints{0, 2}}, {"keep_dims", true}}, {}, {{"axes", Ints{-1}}}};
  for (size_t a = 0; a < attr_sets.size(); ++a) {
    SCOPED_TRACE("attribute set " + std::to_string(a));
    GpuCase c{"Prod", attr_sets[a], {{3, 4, 2}}};
    c.lo = 0.6f, c.hi = 1.5f;
    c.rtol = 1e-4, c.atol = 1e-5;
    compare_both(c, 2e-2);
  }
  // Rows without a zero, with one zero and with two zeros.
  std::vector<float> zeros = {1.5f, -2.f, 0.5f, 1.25f, 0.75f, 0.f, 2.f, -1.f, 0.f, 1.5f, 0.f, 3.f};
  compare_both({"Prod", {{"axes", Ints{1}}}, {{3, 4}}, {zeros}}, 2e-2);
  compare_both({"Prod", {{"axes", Ints{0}}}, {{3, 4}}, {zeros}}, 2e-2);
  GpuCase wide{"Prod", {{"axes", Ints{1}}}, {{2, 700}}};
  wide.lo = 0.999f, wide.hi = 1.001f;
  compare_with_cpu(wide);
}

TEST(GpuShape, RandomFlip) {
  NN_SKIP_WITHOUT_GPU();
  // One seed: the GPU kernel draws its decisions with the CPU kernel's calls, so both agree exactly.
  compare_with_cpu({"RandomFlip", {{"seed", int64_t(3)}}, {{6, 3, 4, 5}}});
  compare_with_cpu({"RandomFlip", {{"seed", int64_t(4)}, {"axes", Ints{2, 3}}}, {{6, 3, 4, 5}}});
}

TEST(GpuShape, RandomShift) {
  NN_SKIP_WITHOUT_GPU();
  const Str modes[] = {"nearest", "reflect", "constant"};
  for (const Str& mode : modes) {
    SCOPED_TRACE(mode);
    compare_with_cpu(
        {"RandomShift", {{"seed", int64_t(7)}, {"shifts", Ints{2, 3}}, {"border_mode", mode}}, {{5, 3, 6, 7}}});
  }
}

TEST(GpuShape, HalfDataMovementAndSums) {
  NN_SKIP_WITHOUT_GPU();
  compare_with_cpu(as_half({"Reshape", {{"shape", Ints{6, -1}}}, {{3, 4, 5}}}, kExact));
  compare_with_cpu(as_half({"Transpose", {{"axes", Ints{2, 0, 1}}}, {{3, 4, 5}}}, kExact));
  const Attrs slice{{"start", Ints{1, 0}}, {"stop", Ints{4, 5}}, {"step", Ints{2, 2}}};
  compare_with_cpu(as_half({"Slice", slice, {{3, 5, 6}}}, kExact));
  compare_with_cpu(
      as_half({"Slice", {{"start", Ints{-1}}, {"stop", Ints{-6}}, {"step", Ints{-2}}}, {{3, 6}}}, kExact));
  compare_with_cpu(as_half({"Concatenate", {{"axis", int64_t(1)}}, {{2, 3, 4}, {2, 5, 4}, {2, 1, 4}}}, kExact));
  for (const char* op : {"Sum", "Mean"}) {
    SCOPED_TRACE(op);
    compare_with_cpu(as_half({op, {{"axes", Ints{1}}}, {{3, 4, 5}}}, 1e-2));
    compare_with_cpu(as_half({op, {{"axes", Ints{0, 2}}, {"keep_dims", true}}, {{3, 4, 5}}}, 1e-2));
    compare_with_cpu(as_half({op, {}, {{3, 4, 5}}}, 2e-2));
  }
}

}  // namespace
}  // namespace nn::gpu_test
