// StatNormalization kernel: per-group mean/variance, standardize, affine; backward including the gradients
// that arrive at the optional mean/variance outputs.
#include "ops/normalization/stat_norm.hpp"

#include <algorithm>
#include <cmath>

namespace nn::ops {

std::vector<int64_t> broadcast_offsets(const Shape& work, const Shape& target) {
  const int nd = int(work.size());
  const Shape tstrides = shape_strides(target);
  std::vector<int64_t> stride(size_t(nd), 0);
  for (int d = 0; d < nd; ++d) stride[d] = target[d] == 1 ? 0 : tstrides[d];
  const int64_t n = shape_size(work);
  std::vector<int64_t> offsets(static_cast<size_t>(n));
  std::vector<int64_t> idx(size_t(nd), 0);
  int64_t off = 0;
  for (int64_t i = 0; i < n; ++i) {
    offsets[i] = off;
    for (int d = nd - 1; d >= 0; --d) {
      if (++idx[d] < work[d]) {
        off += stride[d];
        break;
      }
      off -= stride[d] * (work[d] - 1);
      idx[d] = 0;
    }
  }
  return offsets;
}

StatNormalization::StatNormalization(const OpSchema& s, const Context& c, const Attrs& a)
    : Function(s, c, a),
      eps_(float(attrs_.get_float("eps"))),
      no_scale_(attrs_.has("no_scale") && attrs_.get_bool("no_scale")),  // WeightStandardization has neither
      no_bias_(attrs_.has("no_bias") && attrs_.get_bool("no_bias")) {
  beta_ = no_bias_ ? -1 : 1;
  gamma_ = no_scale_ ? -1 : (no_bias_ ? 1 : 2);
}

void StatNormalization::check_param(const Variables& in, int index, const char* name, const Shape& want) const {
  if (index < 0) return;
  NN_CHECK(in[index]->shape() == want) << type() << ": " << name << " (input " << index << ") has shape "
                                       << to_string(in[index]->shape()) << ", expected " << to_string(want)
                                       << " for x " << to_string(in[0]->shape());
}

void StatNormalization::setup_impl(const Variables& in, const Variables& out) {
  const size_t expected = 1 + (no_scale_ ? 0 : 1) + (no_bias_ ? 0 : 1);
  NN_CHECK(in.size() == expected) << type() << ": expects " << expected << " inputs (no_scale " << no_scale_
                                  << ", no_bias " << no_bias_ << "), got " << in.size();
  NN_CHECK(out.size() == 1 || out.size() == 3)
      << type() << ": outputs must be y, or y, mean and variance; got " << out.size();
  layout_ = make_layout(in);
  NN_INTERNAL_CHECK(shape_size(layout_.work) == in[0]->size()) << type() << ": layout size";
  groups_ = shape_size(layout_.stat);
  count_ = groups_ > 0 ? shape_size(layout_.work) / groups_ : 0;
  mean_.assign(size_t(groups_), 0.0);
  var_.assign(size_t(groups_), 0.0);
  rstd_.assign(size_t(groups_), 0.0);
  out[0]->reshape(in[0]->shape(), true);
  for (size_t o = 1; o < out.size(); ++o) out[o]->reshape(stat_output_shape(layout_), true);
  plan_contiguous();
}

void StatNormalization::compute_stats(const float* x) {
  const int64_t n = int64_t(stat_index_.size());
  std::fill(mean_.begin(), mean_.end(), 0.0);
  std::fill(var_.begin(), var_.end(), 0.0);
  for (int64_t i = 0; i < n; ++i) mean_[stat_index_[i]] += x[i];
  for (auto& m : mean_) m = count_ > 0 ? m / double(count_) : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = x[i] - mean_[stat_index_[i]];
    var_[stat_index_[i]] += d * d;
  }
  for (int64_t s = 0; s < groups_; ++s) {
    var_[s] = count_ > 0 ? var_[s] / double(count_) : 0.0;
    rstd_[s] = 1.0 / std::sqrt(var_[s] + double(eps_));
  }
}

void StatNormalization::forward_impl(const Variables& in, const Variables& out) {
  const float* x = in_data(in[0]);
  const float* beta = beta_ < 0 ? nullptr : in_data(in[beta_]);
  const float* gamma = gamma_ < 0 ? nullptr : in_data(in[gamma_]);
  float* y = out_data(out[0]);
  if (contiguous_) {
    forward_contiguous(x, beta, gamma, y);
  } else {
    compute_stats(x);
    const int64_t n = int64_t(stat_index_.size());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t s = stat_index_[i];
      const double xh = (x[i] - mean_[s]) * rstd_[s];
      y[i] = float(xh * (gamma ? gamma[gamma_index_[i]] : 1.0f) + (beta ? beta[beta_index_[i]] : 0.0f));
    }
  }
  if (out.size() == 3) {
    float* m = out_data(out[1]);
    float* v = out_data(out[2]);
    for (int64_t s = 0; s < groups_; ++s) {
      m[s] = float(mean_[s]);
      v[s] = float(var_[s]);
    }
  }
}

void StatNormalization::backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                                      const std::vector<bool>& accum) {
  if (contiguous_) {
    backward_contiguous(in, out, prop, accum);
    return;
  }
  const float* x = in_data(in[0]);
  const float* dy = out_grad(out[0]);
  const float* gamma = gamma_ < 0 ? nullptr : in_data(in[gamma_]);
  const float* dmean_out = out.size() == 3 ? out_grad(out[1]) : nullptr;
  const float* dvar_out = out.size() == 3 ? out_grad(out[2]) : nullptr;
  compute_stats(x);  // backward may run without a forward on these buffers (e.g. after clear_buffer)
  const int64_t n = int64_t(stat_index_.size());
  const bool want_beta = beta_ >= 0 && prop[beta_], want_gamma = gamma_ >= 0 && prop[gamma_];
  if (want_beta) {
    std::vector<double> acc(size_t(in[beta_]->size()), 0.0);
    for (int64_t i = 0; i < n; ++i) acc[beta_index_[i]] += dy[i];
    float* g = in_grad(in[beta_], accum[beta_]);
    for (size_t p = 0; p < acc.size(); ++p) store_grad(g, int64_t(p), float(acc[p]), accum[beta_]);
  }
  if (want_gamma) {
    std::vector<double> acc(size_t(in[gamma_]->size()), 0.0);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t s = stat_index_[i];
      acc[gamma_index_[i]] += dy[i] * (x[i] - mean_[s]) * rstd_[s];
    }
    float* g = in_grad(in[gamma_], accum[gamma_]);
    for (size_t p = 0; p < acc.size(); ++p) store_grad(g, int64_t(p), float(acc[p]), accum[gamma_]);
  }
  if (!prop[0]) return;
  // dx = rstd * (dxh - mean(dxh) - xh * mean(dxh * xh)) + dmean_out / N + dvar_out * 2 (x - m) / N,
  // with dxh = dy * gamma.
  std::vector<double> sum_dxh(size_t(groups_), 0.0), sum_dxh_xh(size_t(groups_), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = stat_index_[i];
    const double dxh = dy[i] * (gamma ? gamma[gamma_index_[i]] : 1.0f);
    sum_dxh[s] += dxh;
    sum_dxh_xh[s] += dxh * (x[i] - mean_[s]) * rstd_[s];
  }
  const double inv_n = count_ > 0 ? 1.0 / double(count_) : 0.0;
  float* dx = in_grad(in[0], accum[0]);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = stat_index_[i];
    const double dxh = dy[i] * (gamma ? gamma[gamma_index_[i]] : 1.0f);
    const double xc = x[i] - mean_[s];
    double g = rstd_[s] * (dxh - sum_dxh[s] * inv_n - xc * rstd_[s] * sum_dxh_xh[s] * inv_n);
    if (dmean_out) g += dmean_out[s] * inv_n + dvar_out[s] * 2.0 * xc * inv_n;
    store_grad(dx, i, float(g), accum[0]);
  }
}

}  // namespace nn::ops
