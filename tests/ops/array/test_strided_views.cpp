// Slice, Transpose, Broadcast, BroadcastTo, Flip and Tile against index-arithmetic references.
#include <gtest/gtest.h>

#include "array_ref.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;
using nn::Shape;

TEST(Transpose, ForwardBackward3D) {
  std::mt19937 rng(1);
  run_op_test({"Transpose",
               {{"axes", Ints{2, 0, 1}}},
               {random_input({2, 3, 4}, rng)},
               [](const RefInputs& in, const nn::Attrs&) {
                 const auto& x = in[0];
                 return std::vector<RefArray>{make_ref({4, 2, 3}, [&](const Ints& o) {
                   return x.data[ravel({o[1], o[2], o[0]}, x.shape)];
                 })};
               }});
}

TEST(Transpose, RejectsRepeatedAxis) {
  std::mt19937 rng(1);
  EXPECT_THROW(run_op_test({"Transpose",
                            {{"axes", Ints{0, 0}}},
                            {random_input({2, 3}, rng)},
                            [](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{in[0]}; }}),
               nn::Error);
}

TEST(Broadcast, ForwardBackward) {
  std::mt19937 rng(2);
  run_op_test({"Broadcast",
               {{"shape", Ints{2, 3, 4}}},
               {random_input({2, 1, 4}, rng)},
               [](const RefInputs& in, const nn::Attrs&) {
                 const auto& x = in[0];
                 return std::vector<RefArray>{make_ref({2, 3, 4}, [&](const Ints& o) {
                   return x.data[ravel({o[0], 0, o[2]}, x.shape)];
                 })};
               }});
}

TEST(BroadcastTo, AxisAndTail) {
  std::mt19937 rng(3);
  // y (3, 4) aligned at axis 1 of x (2, 3, 4, 5).
  run_op_test({"BroadcastTo",
               {{"axis", int64_t(1)}},
               {random_input({2, 3, 4, 5}, rng), random_input({3, 4}, rng)},
               [](const RefInputs& in, const nn::Attrs&) {
                 const auto& y = in[1];
                 return std::vector<RefArray>{make_ref({2, 3, 4, 5}, [&](const Ints& o) {
                   return y.data[ravel({o[1], o[2]}, y.shape)];
                 })};
               }});
  // axis -1: y (4, 5) fills the trailing axes.
  run_op_test({"BroadcastTo",
               {},
               {random_input({2, 3, 4, 5}, rng), random_input({4, 5}, rng)},
               [](const RefInputs& in, const nn::Attrs&) {
                 const auto& y = in[1];
                 return std::vector<RefArray>{make_ref({2, 3, 4, 5}, [&](const Ints& o) {
                   return y.data[ravel({o[2], o[3]}, y.shape)];
                 })};
               }});
}

TEST(Flip, DefaultLastAxisAndSeveralAxes) {
  std::mt19937 rng(4);
  run_op_test({"Flip", {}, {random_input({2, 3, 4}, rng)}, [](const RefInputs& in, const nn::Attrs&) {
                 const auto& x = in[0];
                 return std::vector<RefArray>{make_ref({2, 3, 4}, [&](const Ints& o) {
                   return x.data[ravel({o[0], o[1], 3 - o[2]}, x.shape)];
                 })};
               }});
  run_op_test(
      {"Flip", {{"axes", Ints{0, -2}}}, {random_input({2, 3, 4}, rng)}, [](const RefInputs& in, const nn::Attrs&) {
         const auto& x = in[0];
         return std::vector<RefArray>{make_ref({2, 3, 4}, [&](const Ints& o) {
           return x.data[ravel({1 - o[0], 2 - o[1], o[2]}, x.shape)];
         })};
       }});
}

TEST(Tile, RepsLongerThanRank) {
  std::mt19937 rng(5);
  run_op_test(
      {"Tile", {{"reps", Ints{2, 1, 3}}}, {random_input({2, 3}, rng)}, [](const RefInputs& in, const nn::Attrs&) {
         const auto& x = in[0];
         return std::vector<RefArray>{make_ref({2, 2, 9}, [&](const Ints& o) {
           return x.data[ravel({o[1] % 2, o[2] % 3}, x.shape)];
         })};
       }});
  run_op_test(
      {"Tile", {{"reps", Ints{2}}}, {random_input({2, 3}, rng)}, [](const RefInputs& in, const nn::Attrs&) {
         const auto& x = in[0];
         return std::vector<RefArray>{make_ref({2, 6}, [&](const Ints& o) {
           return x.data[ravel({o[0], o[1] % 3}, x.shape)];
         })};
       }});
}

TEST(Slice, TrailingAxesNegativeIndicesAndSteps) {
  std::mt19937 rng(6);
  // Only the last two axes given: x[:, 1:3, -1:0:-2] on (2, 4, 5) -> (2, 2, 2).
  run_op_test({"Slice",
               {{"start", Ints{1, -1}}, {"stop", Ints{3, 0}}, {"step", Ints{1, -2}}},
               {random_input({2, 4, 5}, rng)},
               [](const RefInputs& in, const nn::Attrs&) {
                 const auto& x = in[0];
                 return std::vector<RefArray>{make_ref({2, 2, 2}, [&](const Ints& o) {
                   return x.data[ravel({o[0], 1 + o[1], 4 - 2 * o[2]}, x.shape)];
                 })};
               }});
  // A start at or past the end keeps nothing (x[4:9] on (3, 2) -> (0, 2)): a slice of an axis whose length is
  // known only at run time keeps its import-time start and stop.
  run_op_test({"Slice",
               {{"start", Ints{4, 0}}, {"stop", Ints{9, 2}}, {"step", Ints{1, 1}}},
               {random_input({3, 2}, rng)},
               [](const RefInputs&, const nn::Attrs&) {
                 return std::vector<RefArray>{RefArray{{0, 2}, {}}};
               }});
  // stop beyond the end is clamped: x[0:7:3] on (5,) -> indices 0, 3.
  run_op_test({"Slice",
               {{"start", Ints{0}}, {"stop", Ints{7}}, {"step", Ints{3}}},
               {random_input({5}, rng)},
               [](const RefInputs& in, const nn::Attrs&) {
                 return std::vector<RefArray>{RefArray{{2}, {in[0].data[0], in[0].data[3]}}};
               }});
}
