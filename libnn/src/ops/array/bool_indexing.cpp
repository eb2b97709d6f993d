// BoolGather, BoolScatter, BoolFill: boolean-mask indexing (mask values != 0 are true); masks get no
// gradient.
#include <algorithm>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

int64_t count_nonzero(const float* m, int64_t n) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) k += m[i] != 0.f;
  return k;
}

// Throws unless mask's shape is the leading part of data's.
void check_mask_prefix(const std::string& op, const Shape& data, const Shape& mask, const char* data_name) {
  bool ok = mask.size() <= data.size();
  for (size_t d = 0; ok && d < mask.size(); ++d) ok = mask[d] == data[d];
  NN_CHECK(ok) << op << ": mask " << to_string(mask) << " must equal the leading axes of " << data_name << " "
               << to_string(data);
}

// BoolGather: the rows gdata[b] (b over mask's axes) where mask[b] != 0, as (nnz, D) (or (nnz) when mask
// covers every axis). The row count is read from the mask at setup, as upstream.
class BoolGather : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    check_mask_prefix("BoolGather", in[0]->shape(), in[1]->shape(), "gdata");
    rows_ = in[1]->size();
    row_size_ = rows_ > 0 ? in[0]->size() / rows_ : 0;
    const int64_t nnz = count_nonzero(in_data(in[1]), rows_);
    out[0]->reshape(in[0]->shape().size() == in[1]->shape().size() ? Shape{nnz} : Shape{nnz, row_size_}, true);
  }
  template <class F>
  void walk(const float* mask, F&& f) const {
    for (int64_t b = 0, k = 0; b < rows_; ++b)
      if (mask[b] != 0.f) f(b, k++);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* mask = in_data(in[1]);
    Shape ys = out[0]->shape();
    ys[0] = count_nonzero(mask, rows_);  // the count follows the mask's values of this run
    out[0]->reshape(ys, true);
    const float* g = in_data(in[0]);
    float* s = out_data(out[0]);
    walk(mask,
         [&](int64_t b, int64_t k) { std::copy(g + b * row_size_, g + (b + 1) * row_size_, s + k * row_size_); });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (prop[1] && !accum[1]) in[1]->grad()->zero();
    if (!prop[0]) return;
    const float* ds = out_grad(out[0]);
    float* dg = in_grad_zeroed(in[0], accum[0]);
    walk(in_data(in[1]), [&](int64_t b, int64_t k) {
      for (int64_t j = 0; j < row_size_; ++j) dg[b * row_size_ + j] += ds[k * row_size_ + j];
    });
  }

 private:
  int64_t rows_ = 0, row_size_ = 1;
};

// BoolScatter: the inverse of BoolGather: row k of sdata goes to the k-th true position of mask; output
// shape mask.shape + sdata.shape[1:], the other rows from gdata (third input) or zero.
class BoolScatter : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ss = in[0]->shape();
    const Shape& ms = in[1]->shape();
    NN_CHECK(!ss.empty()) << "BoolScatter: sdata must have at least 1 dimension";
    Shape ys = ms;
    ys.insert(ys.end(), ss.begin() + 1, ss.end());
    if (in.size() == 3) {
      NN_CHECK(in[2]->shape() == ys) << "BoolScatter: gdata has shape " << to_string(in[2]->shape())
                                     << ", expected " << to_string(ys);
    }
    rows_ = in[1]->size();
    row_size_ = shape_size(ss, 1, ss.size());
    nnz_ = ss[0];
    out[0]->reshape(ys, true);
  }
  template <class F>
  void walk(const float* mask, F&& f) const {
    NN_CHECK(count_nonzero(mask, rows_) == nnz_) << "BoolScatter: the mask has " << count_nonzero(mask, rows_)
                                                 << " nonzeros for " << nnz_ << " rows of sdata";
    for (int64_t b = 0, k = 0; b < rows_; ++b)
      if (mask[b] != 0.f) f(b, k++);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* s = in_data(in[0]);
    float* y = out_data(out[0]);
    if (in.size() == 3) {
      const float* g = in_data(in[2]);
      std::copy(g, g + out[0]->size(), y);
    } else {
      std::fill(y, y + out[0]->size(), 0.f);
    }
    walk(in_data(in[1]),
         [&](int64_t b, int64_t k) { std::copy(s + k * row_size_, s + (k + 1) * row_size_, y + b * row_size_); });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* mask = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    if (prop[1] && !accum[1]) in[1]->grad()->zero();
    if (prop[0]) {
      float* ds = in_grad(in[0], accum[0]);
      walk(mask, [&](int64_t b, int64_t k) {
        for (int64_t j = 0; j < row_size_; ++j) store_grad(ds, k * row_size_ + j, dy[b * row_size_ + j], accum[0]);
      });
    }
    if (in.size() == 3 && prop[2]) {
      float* dg = in_grad(in[2], accum[2]);
      for (int64_t b = 0; b < rows_; ++b)
        for (int64_t j = 0; j < row_size_; ++j) {
          const int64_t i = b * row_size_ + j;
          store_grad(dg, i, mask[b] != 0.f ? 0.f : dy[i], accum[2]);
        }
    }
  }

 private:
  int64_t rows_ = 0, row_size_ = 1, nnz_ = 0;
};

// BoolFill: y = value where mask != 0, else data; mask broadcasts onto data (aligned to the trailing axes).
class BoolFill : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ds = in[0]->shape();
    const Shape& ms = in[1]->shape();
    NN_CHECK(ms.size() <= ds.size()) << "BoolFill: mask " << to_string(ms) << " has more axes than data "
                                     << to_string(ds);
    Shape aligned(ds.size() - ms.size(), 1);
    aligned.insert(aligned.end(), ms.begin(), ms.end());
    for (size_t d = 0; d < ds.size(); ++d)
      NN_CHECK(aligned[d] == 1 || aligned[d] == ds[d])
          << "BoolFill: mask " << to_string(ms) << " does not broadcast to data " << to_string(ds);
    // Offset into mask for every data element.
    const Shape mstr = shape_strides(aligned);
    mask_index_.resize(size_t(in[0]->size()));
    std::vector<int64_t> idx(ds.size(), 0);
    for (int64_t i = 0; i < in[0]->size(); ++i) {
      int64_t off = 0;
      for (size_t d = 0; d < ds.size(); ++d) off += aligned[d] == 1 ? 0 : idx[d] * mstr[d];
      mask_index_[i] = off;
      for (int d = int(ds.size()) - 1; d >= 0; --d) {
        if (++idx[d] < ds[d]) break;
        idx[d] = 0;
      }
    }
    out[0]->reshape(ds, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* data = in_data(in[0]);
    const float* mask = in_data(in[1]);
    const float value = float(attrs_.get_float("value"));
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < out[0]->size(); ++i) y[i] = mask[mask_index_[i]] != 0.f ? value : data[i];
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (prop[1] && !accum[1]) in[1]->grad()->zero();
    if (!prop[0]) return;
    const float* mask = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t i = 0; i < out[0]->size(); ++i)
      store_grad(dx, i, mask[mask_index_[i]] != 0.f ? 0.f : dy[i], accum[0]);
  }

 private:
  std::vector<int64_t> mask_index_;
};

}  // namespace

void register_bool_gather(OpRegistry& r) {
  register_cpu<BoolGather>(r, SchemaBuilder("BoolGather", "Array Manipulation")
                                  .doc("rows of gdata where mask is true")
                                  .in("gdata")
                                  .in("mask")
                                  .out("sdata")
                                  .build());
}

void register_bool_scatter(OpRegistry& r) {
  register_cpu<BoolScatter>(r, SchemaBuilder("BoolScatter", "Array Manipulation")
                                   .doc("rows of sdata placed where mask is true")
                                   .in("sdata")
                                   .in("mask")
                                   .in_optional("gdata")
                                   .out("gdata")
                                   .build());
}

void register_bool_fill(OpRegistry& r) {
  register_cpu<BoolFill>(r, SchemaBuilder("BoolFill", "Array Manipulation")
                                .doc("value where mask is true, data elsewhere")
                                .in("data")
                                .in("mask")
                                .arg("value", AttrType::kFloat, AttrValue(0.0))
                                .out("output")
                                .build());
}

}  // namespace nn::ops
