// PackPaddedSequence and PadPackedSequence: between padded (T, B, D...) (or (B, T, D...) with batch_first)
// and packed (N, D...) sequences, packed time step by time step; lengths are sorted in decreasing order.
#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Calls f(packed row, padded row) for each packed element, padded rows of a (steps, batch) layout.
template <class F>
void walk_packed(const std::vector<int64_t>& batch_sizes, int64_t steps, int64_t batch, bool batch_first, F&& f) {
  int64_t k = 0;
  for (int64_t t = 0; t < int64_t(batch_sizes.size()); ++t)
    for (int64_t b = 0; b < batch_sizes[t]; ++b) f(k++, batch_first ? b * steps + t : t * batch + b);
}

std::vector<int64_t> read_counts(Variable* v) {
  const float* p = in_data(v);
  std::vector<int64_t> r;
  for (int64_t i = 0; i < v->size(); ++i) r.push_back(int64_t(std::llround(p[i])));
  return r;
}

// Inputs padded_sequence, lengths (B); outputs packed_sequence (sum(lengths), D...), batch_sizes (T).
class PackPaddedSequence : public Function {
 public:
  PackPaddedSequence(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), batch_first_(attrs_.get_bool("batch_first")) {}
  bool grad_depends_input_data(int, int j) const override { return j == 1; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ps = in[0]->shape();
    NN_CHECK(ps.size() >= 2 && in[1]->shape().size() == 1)
        << "PackPaddedSequence: padded_sequence " << to_string(ps) << " must be (T, B, ...) and lengths "
        << to_string(in[1]->shape()) << " must be 1-D";
    steps_ = batch_first_ ? ps[1] : ps[0];
    batch_ = batch_first_ ? ps[0] : ps[1];
    NN_CHECK(in[1]->size() == batch_) << "PackPaddedSequence: lengths has " << in[1]->size()
                                      << " entries for batch " << batch_;
    row_ = shape_size(ps, 2, ps.size());
    update_batch_sizes(in[1]);
    Shape packed{total_};
    packed.insert(packed.end(), ps.begin() + 2, ps.end());
    out[0]->reshape(packed, true);
    out[1]->reshape({steps_}, true);
  }
  void update_batch_sizes(Variable* lengths) {
    const auto len = read_counts(lengths);
    total_ = 0;
    for (size_t b = 0; b < len.size(); ++b) {
      NN_CHECK(len[b] >= 0 && len[b] <= steps_ && (b == 0 || len[b] <= len[b - 1]))
          << "PackPaddedSequence: lengths must be in [0, " << steps_ << "] and sorted in decreasing order";
      total_ += len[b];
    }
    batch_sizes_.assign(size_t(steps_), 0);
    for (int64_t t = 0; t < steps_; ++t)
      for (int64_t l : len) batch_sizes_[t] += l > t;
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    update_batch_sizes(in[1]);
    NN_CHECK(total_ == out[0]->shape()[0])
        << "PackPaddedSequence: lengths now sum to " << total_ << ", setup saw " << out[0]->shape()[0];
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    walk_packed(batch_sizes_, steps_, batch_, batch_first_,
                [&](int64_t k, int64_t p) { std::copy(x + p * row_, x + (p + 1) * row_, y + k * row_); });
    float* bs = out_data(out[1]);
    for (int64_t t = 0; t < steps_; ++t) bs[t] = float(batch_sizes_[t]);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (prop[1] && !accum[1]) in[1]->grad()->zero();
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);  // padding positions get zero
    walk_packed(batch_sizes_, steps_, batch_, batch_first_, [&](int64_t k, int64_t p) {
      for (int64_t j = 0; j < row_; ++j) dx[p * row_ + j] += dy[k * row_ + j];
    });
  }

 private:
  bool batch_first_;
  int64_t steps_ = 0, batch_ = 0, row_ = 1, total_ = 0;
  std::vector<int64_t> batch_sizes_;
};

// Inputs packed_sequence (N, D...), batch_sizes (T); outputs padded_sequence (max(T, total_length), B, D...)
// filled with padding_value, and lengths (B).
class PadPackedSequence : public Function {
 public:
  PadPackedSequence(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), batch_first_(attrs_.get_bool("batch_first")) {}
  bool grad_depends_input_data(int, int j) const override { return j == 1; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ks = in[0]->shape();
    NN_CHECK(!ks.empty() && in[1]->shape().size() == 1)
        << "PadPackedSequence: packed_sequence " << to_string(ks) << " must be (N, ...) and batch_sizes "
        << to_string(in[1]->shape()) << " must be 1-D";
    batch_sizes_ = read_counts(in[1]);
    int64_t total = 0;
    batch_ = 0;
    for (int64_t v : batch_sizes_) {
      NN_CHECK(v >= 0) << "PadPackedSequence: negative batch size " << v;
      total += v;
      batch_ = std::max(batch_, v);
    }
    NN_CHECK(total == ks[0]) << "PadPackedSequence: batch_sizes sum to " << total << " but packed_sequence has "
                             << ks[0] << " rows";
    steps_ = std::max<int64_t>(int64_t(batch_sizes_.size()), attrs_.get_int("total_length"));
    row_ = shape_size(ks, 1, ks.size());
    Shape padded = batch_first_ ? Shape{batch_, steps_} : Shape{steps_, batch_};
    padded.insert(padded.end(), ks.begin() + 1, ks.end());
    out[0]->reshape(padded, true);
    out[1]->reshape({batch_}, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(read_counts(in[1]) == batch_sizes_) << "PadPackedSequence: batch_sizes changed since setup";
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::fill(y, y + out[0]->size(), float(attrs_.get_float("padding_value")));
    walk_packed(batch_sizes_, steps_, batch_, batch_first_,
                [&](int64_t k, int64_t p) { std::copy(x + k * row_, x + (k + 1) * row_, y + p * row_); });
    float* len = out_data(out[1]);
    for (int64_t b = 0; b < batch_; ++b) {
      int64_t l = 0;
      for (int64_t v : batch_sizes_) l += v > b;
      len[b] = float(l);
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (prop[1] && !accum[1]) in[1]->grad()->zero();
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    walk_packed(batch_sizes_, steps_, batch_, batch_first_, [&](int64_t k, int64_t p) {
      for (int64_t j = 0; j < row_; ++j) store_grad(dx, k * row_ + j, dy[p * row_ + j], accum[0]);
    });
  }

 private:
  bool batch_first_;
  int64_t steps_ = 0, batch_ = 0, row_ = 1;
  std::vector<int64_t> batch_sizes_;
};

}  // namespace

void register_pack_padded_sequence(OpRegistry& r) {
  register_cpu<PackPaddedSequence>(r, SchemaBuilder("PackPaddedSequence", "Array Manipulation")
                                          .doc("pack a padded batch of sequences time step by time step")
                                          .in("padded_sequence")
                                          .in("lengths")
                                          .arg("batch_first", AttrType::kBool, AttrValue(false))
                                          .out("pack_sequence")
                                          .out("batch_sizes")
                                          .build());
}

void register_pad_packed_sequence(OpRegistry& r) {
  register_cpu<PadPackedSequence>(r, SchemaBuilder("PadPackedSequence", "Array Manipulation")
                                         .doc("unpack a packed sequence into a padded batch")
                                         .in("packed_sequence")
                                         .in("batch_sizes")
                                         .arg("batch_first", AttrType::kBool, AttrValue(false))
                                         .arg("padding_value", AttrType::kFloat, AttrValue(0.0))
                                         .arg("total_length", AttrType::kInt, AttrValue(int64_t(-1)))
                                         .out("padded_sequence")
                                         .out("lengths")
                                         .build());
}

}  // namespace nn::ops
