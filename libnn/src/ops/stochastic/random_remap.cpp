// RandomFlip and RandomShift: per-sample random index remapping of the axes after base_axis.
#include <algorithm>
#include <cstdlib>
#include <optional>

#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/stochastic/remap_tables.hpp"

namespace nn::ops {

int remap_base_axis(const Attrs& attrs, const Shape& xs, const std::string& fn) {
  const int64_t base_axis = attrs.get_int("base_axis");
  NN_CHECK(base_axis >= 0 && base_axis <= int64_t(xs.size()))
      << fn << ": base_axis " << base_axis << " is out of range for input " << to_string(xs);
  return int(base_axis);
}

std::vector<bool> random_flip_axes(const Attrs& attrs, size_t nd, int base_axis) {
  NN_CHECK(nd > 0) << "RandomFlip: input must have at least one dimension";
  std::vector<bool> flip(nd, false);
  for (int64_t a : attrs.get_ints("axes", {int64_t(nd) - 1})) {
    const int ax = normalize_axis(a, nd, "RandomFlip: axis");
    NN_CHECK(ax >= base_axis) << "RandomFlip: axis " << a << " is before base_axis " << base_axis;
    flip[size_t(ax)] = true;
  }
  return flip;
}

RandomShiftArgs::RandomShiftArgs(const Attrs& attrs, const Shape& inner_shape, const Shape& xs)
    : shifts(attrs.get_ints("shifts", std::vector<int64_t>(inner_shape.size(), 0))),
      border_mode(attrs.get_string("border_mode")),
      constant_value(float(attrs.get_float("constant_value"))) {
  NN_CHECK(shifts.size() <= inner_shape.size())
      << "RandomShift: shifts " << to_string(shifts) << " has more entries than the axes after base_axis of "
      << to_string(xs);
  for (int64_t s : shifts) NN_CHECK(s >= 0) << "RandomShift: shifts " << to_string(shifts) << " must be >= 0";
  NN_CHECK(border_mode == "nearest" || border_mode == "reflect" || border_mode == "constant")
      << "RandomShift: border_mode '" << border_mode << "' is not one of nearest, reflect, constant";
}

namespace {

// Shared machinery: every sample (index over the axes before base_axis) gets, per inner axis, a table
// mapping output index -> input index (-1: a constant value). Backward scatters through the same tables.
class RemapFunction : public Function {
 public:
  RemapFunction(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), random_(attrs_.get_int("seed")) {}
  bool is_stochastic() const override { return true; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  using Tables = std::vector<std::vector<int64_t>>;  // per inner axis
  // Draws the tables of one sample.
  virtual Tables draw(RandomEngine& engine) = 0;
  virtual float fill_value() const { return 0.f; }

  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    base_axis_ = remap_base_axis(attrs_, xs, type());
    samples_ = shape_size(xs, 0, base_axis_);
    inner_shape_.assign(xs.begin() + base_axis_, xs.end());
    out[0]->reshape(xs, true);
  }

  // Calls f(flat out index, flat in index or -1) for every element of every sample.
  template <class F>
  void for_each(F&& f) const {
    const int nd = int(inner_shape_.size());
    const Shape strides = shape_strides(inner_shape_);
    const int64_t inner = shape_size(inner_shape_);
    std::vector<int64_t> idx(size_t(nd), 0);
    for (int64_t s = 0; s < samples_; ++s) {
      const Tables& t = tables_[s];
      for (int64_t i = 0; i < inner; ++i) {
        int64_t off = 0;
        for (int d = 0; d < nd && off >= 0; ++d) {
          const int64_t j = t[d][idx[d]];
          off = j < 0 ? -1 : off + j * strides[d];
        }
        f(s * inner + i, off < 0 ? -1 : s * inner + off);
        for (int d = nd - 1; d >= 0; --d) {
          if (++idx[d] < inner_shape_[d]) break;
          idx[d] = 0;
        }
      }
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    tables_.clear();
    for (int64_t s = 0; s < samples_; ++s) tables_.push_back(draw(random_.engine()));
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const float fill = fill_value();
    for_each([&](int64_t o, int64_t i) { y[o] = i < 0 ? fill : x[i]; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    for_each([&](int64_t o, int64_t i) {
      if (i >= 0) dx[i] += dy[o];
    });
  }

  SeededRandom random_;
  int base_axis_ = 1;
  int64_t samples_ = 1;
  Shape inner_shape_;
  std::vector<Tables> tables_;  // per sample, from the last forward
};

// RandomFlip: each listed axis of each sample is reversed with probability 1/2 (one draw per axis of x,
// as upstream, so the random stream matches).
class RandomFlip : public RemapFunction {
 public:
  using RemapFunction::RemapFunction;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    RemapFunction::setup_impl(in, out);
    flip_axis_ = random_flip_axes(attrs_, in[0]->shape().size(), base_axis_);
  }
  Tables draw(RandomEngine& engine) override {
    return draw_flip_tables(engine, flip_axis_, base_axis_, inner_shape_);
  }

 private:
  std::vector<bool> flip_axis_;
};

// RandomShift: the trailing axes of each sample are shifted by a uniform integer in [-shifts[i], shifts[i]];
// border_mode nearest (edge), reflect (mirror with edge repeat) or constant (constant_value).
class RandomShift : public RemapFunction {
 public:
  using RemapFunction::RemapFunction;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    RemapFunction::setup_impl(in, out);
    args_ = RandomShiftArgs(attrs_, inner_shape_, in[0]->shape());
  }
  float fill_value() const override { return args_->constant_value; }
  Tables draw(RandomEngine& engine) override {
    return draw_shift_tables(engine, args_->shifts, args_->border_mode, inner_shape_);
  }

 private:
  std::optional<RandomShiftArgs> args_;
};

}  // namespace

void register_random_flip(OpRegistry& r) {
  register_cpu<RandomFlip>(r, SchemaBuilder("RandomFlip", "Stochasticity")
                                  .doc("reverses the listed axes of each sample with probability 1/2")
                                  .in("x")
                                  .arg("axes", AttrType::kInts, std::nullopt, "[last axis]")
                                  .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                  .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)))
                                  .out("y")
                                  .build());
}

void register_random_shift(OpRegistry& r) {
  register_cpu<RandomShift>(r, SchemaBuilder("RandomShift", "Stochasticity")
                                   .doc("shifts each sample by a random integer offset per trailing axis")
                                   .in("x")
                                   .arg("shifts", AttrType::kInts, std::nullopt, "0s")
                                   .arg("border_mode", AttrType::kString, AttrValue(std::string("nearest")))
                                   .arg("constant_value", AttrType::kFloat, AttrValue(0.0))
                                   .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                   .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)))
                                   .out("y")
                                   .build());
}

RemapSampleTables draw_flip_tables(RandomEngine& engine, const std::vector<bool>& flip_axis, int base_axis,
                                   const Shape& inner_shape) {
  RemapSampleTables t;
  for (size_t d = 0; d < flip_axis.size(); ++d) {
    const bool coin = engine() % 2 != 0;
    if (int(d) < base_axis) continue;
    std::vector<int64_t> table(static_cast<size_t>(inner_shape[d - size_t(base_axis)]));
    for (size_t i = 0; i < table.size(); ++i) table[i] = int64_t(i);
    if (coin && flip_axis[d]) std::reverse(table.begin(), table.end());
    t.push_back(std::move(table));
  }
  return t;
}

RemapSampleTables draw_shift_tables(RandomEngine& engine, const std::vector<int64_t>& shifts,
                                    const std::string& mode, const Shape& inner_shape) {
  std::vector<int64_t> shift(shifts.size());
  for (size_t i = 0; i < shifts.size(); ++i)
    shift[i] = int64_t(engine() % uint32_t(2 * shifts[i] + 1)) - shifts[i];
  const int nd = int(inner_shape.size());
  RemapSampleTables t(static_cast<size_t>(nd));
  for (int d = 0; d < nd; ++d) {
    const int64_t k = int64_t(shifts.size()) - nd + d;  // shifts cover the trailing axes
    const int64_t offset = k >= 0 ? -shift[size_t(k)] : 0, n = inner_shape[size_t(d)];
    auto& table = t[size_t(d)];
    table.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = i + offset;
      if (mode == "nearest") {
        table[size_t(i)] = std::min(std::max<int64_t>(j, 0), n - 1);
      } else if (mode == "constant") {
        table[size_t(i)] = j >= 0 && j < n ? j : -1;
      } else {  // reflect: mirror with the edge repeated
        const int64_t a = n > 1 ? std::llabs(j + 2 * n) % (2 * n) : 0;
        table[size_t(i)] = a >= n ? 2 * n - 1 - a : a;
      }
    }
  }
  return t;
}

}  // namespace nn::ops
