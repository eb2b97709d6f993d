// Gather, GatherNd, ScatterNd, ScatterAdd against double references (indices get no gradient).
#include <gtest/gtest.h>

#include "array_ref.hpp"
#include "op_tester.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;

namespace {

RefArray ints(const nn::Shape& s, std::vector<double> v) { return RefArray{s, std::move(v)}; }

int64_t wrap(double v, int64_t dim) {
  const int64_t i = int64_t(v);
  return i < 0 ? i + dim : i;
}

OpTestCase indexed_case(const std::string& type, const nn::Attrs& attrs, std::vector<RefArray> inputs,
                        Reference ref, int index_input = 1) {
  OpTestCase tc{type, attrs, std::move(inputs), std::move(ref)};
  tc.check_grad.assign(tc.inputs.size(), true);
  tc.check_grad[index_input] = false;
  return tc;
}

}  // namespace

TEST(Gather, AxisAndBatchDims) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const auto& xs = in[0].shape;
    const auto& is = in[1].shape;
    const int64_t axis = a.get_int("axis", 0), batch = a.get_int("batch_dims", 0);
    nn::Shape ys(xs.begin(), xs.begin() + axis);
    ys.insert(ys.end(), is.begin() + batch, is.end());
    ys.insert(ys.end(), xs.begin() + axis + 1, xs.end());
    return std::vector<RefArray>{make_ref(ys, [&](const std::vector<int64_t>& o) {
      std::vector<int64_t> ii(o.begin(), o.begin() + batch);  // batch part of indices
      ii.insert(ii.end(), o.begin() + axis, o.begin() + axis + int64_t(is.size()) - batch);
      std::vector<int64_t> xi(o.begin(), o.begin() + axis);
      xi.push_back(wrap(in[1].data[size_t(ravel(ii, is))], xs[axis]));
      xi.insert(xi.end(), o.begin() + axis + int64_t(is.size()) - batch, o.end());
      return in[0].data[size_t(ravel(xi, xs))];
    })};
  };
  std::mt19937 rng(1);
  run_op_test(indexed_case("Gather", {}, {random_input({4, 3}, rng), ints({2, 2}, {3, 0, 1, 3})}, ref));
  run_op_test(
      indexed_case("Gather", {{"axis", int64_t(1)}}, {random_input({2, 4, 3}, rng), ints({3}, {2, -1, 2})}, ref));
  run_op_test(indexed_case("Gather", {{"axis", int64_t(1)}, {"batch_dims", int64_t(1)}},
                           {random_input({2, 4, 3}, rng), ints({2, 2}, {0, 3, 1, 1})}, ref));
}

TEST(GatherNd, Slices) {
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    const auto& xs = in[0].shape;
    const auto& is = in[1].shape;
    const int64_t m = is[0], positions = ref_size(is) / m;
    nn::Shape ys(is.begin() + 1, is.end());
    ys.insert(ys.end(), xs.begin() + m, xs.end());
    const size_t pos_rank = is.size() - 1;
    return std::vector<RefArray>{make_ref(ys, [&](const std::vector<int64_t>& o) {
      const int64_t n =
          ravel(std::vector<int64_t>(o.begin(), o.begin() + pos_rank), nn::Shape(is.begin() + 1, is.end()));
      std::vector<int64_t> xi;
      for (int64_t d = 0; d < m; ++d) xi.push_back(wrap(in[1].data[size_t(d * positions + n)], xs[d]));
      xi.insert(xi.end(), o.begin() + pos_rank, o.end());
      return in[0].data[size_t(ravel(xi, xs))];
    })};
  };
  std::mt19937 rng(2);
  run_op_test(
      indexed_case("GatherNd", {}, {random_input({3, 4, 2}, rng), ints({2, 3}, {0, 2, 1, 3, 0, -1})}, ref));
  run_op_test(indexed_case("GatherNd", {}, {random_input({3, 4}, rng), ints({1, 2, 2}, {2, 0, 1, 1})}, ref));
}

TEST(ScatterNd, ShapeOutAndAdd) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const nn::Shape shape = in.size() == 3 ? in[2].shape : a.get_ints("shape", {});
    const auto& is = in[1].shape;
    const int64_t m = is[0], positions = ref_size(is) / m;
    const int64_t slice = ref_size(nn::Shape(shape.begin() + m, shape.end()));
    RefArray y{shape, in.size() == 3 ? in[2].data : std::vector<double>(size_t(ref_size(shape)), 0.0)};
    for (int64_t n = 0; n < positions; ++n) {
      std::vector<int64_t> xi;
      for (int64_t d = 0; d < m; ++d) xi.push_back(wrap(in[1].data[size_t(d * positions + n)], shape[d]));
      xi.resize(shape.size(), 0);
      const int64_t b = ravel(xi, shape);
      for (int64_t s = 0; s < slice; ++s)
        y.data[b + s] = (a.get_bool("add", false) ? y.data[b + s] : 0.0) + in[0].data[n * slice + s];
    }
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(3);
  run_op_test(
      indexed_case("ScatterNd", {{"shape", Ints{4, 3}}}, {random_input({2, 3}, rng), ints({1, 2}, {3, 1})}, ref));
  run_op_test(indexed_case("ScatterNd", {{"shape", Ints{3, 4}}},
                           {random_input({3}, rng), ints({2, 3}, {0, 2, 1, 3, 0, 2})}, ref));
  run_op_test(indexed_case("ScatterNd", {},
                           {random_input({2, 3}, rng), ints({1, 2}, {0, 2}), random_input({4, 3}, rng)}, ref));
  // Duplicate indices add up with add=true.
  run_op_test(indexed_case("ScatterNd", {{"add", true}},
                           {random_input({3, 3}, rng), ints({1, 3}, {1, 1, 3}), random_input({4, 3}, rng)}, ref));
}

TEST(ScatterAdd, AlongAxis) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const int64_t axis = a.get_int("axis", 0);
    RefArray y = in[0];
    const auto& is = in[1].shape;
    for (int64_t i = 0; i < ref_size(is); ++i) {
      auto p = unravel(i, is);
      const double v = in[2].data[size_t(ravel(p, in[2].shape))];
      p[axis] = int64_t(in[1].data[i]);
      y.data[size_t(ravel(p, y.shape))] += v;
    }
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(4);
  run_op_test(
      indexed_case("ScatterAdd", {},
                   {random_input({3, 4}, rng), ints({2, 3}, {2, 0, 2, 1, 2, 0}), random_input({2, 4}, rng)}, ref));
  run_op_test(indexed_case("ScatterAdd", {{"axis", int64_t(1)}},
                           {random_input({2, 3}, rng), ints({2, 2}, {0, 0, 2, 1}), random_input({2, 3}, rng)},
                           ref));
}
