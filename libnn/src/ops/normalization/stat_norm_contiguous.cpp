// StatNormalization fast path for layouts whose statistics groups are contiguous blocks (Layer, Instance,
// Group normalization on the default axes): vectorized per-group loops, parallel over groups.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "ops/normalization/stat_norm.hpp"

namespace nn::ops {

namespace {
const float kOne = 1.f, kZero = 0.f;

// Calls body(bs, gs) with the beta/gamma strides (0 or 1) as compile-time constants.
template <class Body>
void with_param_strides(int64_t beta_stride, int64_t gamma_stride, Body&& body) {
  using One = std::integral_constant<int64_t, 1>;
  using Zero = std::integral_constant<int64_t, 0>;
  if (beta_stride) {
    if (gamma_stride)
      body(One{}, One{});
    else
      body(One{}, Zero{});
  } else {
    if (gamma_stride)
      body(Zero{}, One{});
    else
      body(Zero{}, Zero{});
  }
}
}  // namespace

namespace {
// Whether, over the axes of `work` longer than 1, the statistics keep a leading run of axes and reduce the rest
// (each group then a contiguous block), and each parameter present is 1 on the kept axes and full on the reduced
// ones (its offset the position in the group): LayerNormalization's layout, told from the shapes alone.
bool groups_by_position(const NormLayout& l, bool with_beta, bool with_gamma) {
  bool reducing = false;
  for (size_t d = 0; d < l.work.size(); ++d) {
    if (l.work[d] == 1) continue;
    const bool reduced = l.stat[d] == 1;
    if (reducing && !reduced) return false;
    reducing = reducing || reduced;
    const int64_t param_dim = reduced ? l.work[d] : 1;
    if ((with_beta && l.beta[d] != param_dim) || (with_gamma && l.gamma[d] != param_dim)) return false;
  }
  return true;
}
}  // namespace

void StatNormalization::plan_contiguous() {
  contiguous_ = false;
  runs_.clear();
  stat_index_.clear();
  beta_index_.clear();
  gamma_index_.clear();
  if (count_ > 0 && shape_size(layout_.work) > 0 && groups_by_position(layout_, beta_ >= 0, gamma_ >= 0)) {
    contiguous_ = true;  // no per-element offsets: setup at a new shape costs no pass over the elements
    runs_per_group_ = 1;
    run_stride_ = 1;
    runs_.push_back({0, count_, 0, 0});
    return;
  }
  stat_index_ = broadcast_offsets(layout_.work, layout_.stat);
  if (beta_ >= 0) beta_index_ = broadcast_offsets(layout_.work, layout_.beta);
  if (gamma_ >= 0) gamma_index_ = broadcast_offsets(layout_.work, layout_.gamma);
  const int64_t n = int64_t(stat_index_.size());
  if (count_ <= 0 || n == 0) return;
  for (int64_t i = 0; i < n; ++i)
    if (stat_index_[i] != i / count_) return;
  auto beta_at = [&](int64_t i) { return beta_ < 0 ? int64_t(0) : beta_index_[i]; };
  auto gamma_at = [&](int64_t i) { return gamma_ < 0 ? int64_t(0) : gamma_index_[i]; };
  // Parameters indexed by the position in the group (LayerNormalization): one unit-stride run.
  bool by_position = true;
  for (int64_t i = 0; i < n && by_position; ++i) {
    const int64_t k = i % count_;
    by_position = (beta_ < 0 || beta_at(i) == k) && (gamma_ < 0 || gamma_at(i) == k);
  }
  if (by_position) {
    contiguous_ = true;
    runs_per_group_ = 1;
    run_stride_ = 1;
    runs_.push_back({0, count_, 0, 0});
    return;
  }
  // Otherwise runs of equal parameters (a channel's spatial block), of the first run's length when every
  // run has it, else single elements.
  int64_t len = 1;
  while (len < count_ && beta_at(len) == beta_at(0) && gamma_at(len) == gamma_at(0)) ++len;
  bool uniform = count_ % len == 0;
  for (int64_t i = 0; i < n && uniform; ++i)
    uniform = beta_at(i) == beta_at(i - i % len) && gamma_at(i) == gamma_at(i - i % len);
  if (!uniform) len = 1;
  contiguous_ = true;
  runs_per_group_ = count_ / len;
  run_stride_ = 0;
  runs_.reserve(size_t(n / len));
  for (int64_t i = 0; i < n; i += len) runs_.push_back({i % count_, len, beta_at(i), gamma_at(i)});
}

void StatNormalization::compute_group_stats(const float* x, int64_t g) {
  const float* xg = x + g * count_;
  double sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (int64_t k = 0; k < count_; ++k) sum += xg[k];
  const double mean = sum / double(count_);
  const float mean_f = float(mean);
  double sq = 0.0;
#pragma omp simd reduction(+ : sq)
  for (int64_t k = 0; k < count_; ++k) {
    const float d = xg[k] - mean_f;
    sq += d * d;
  }
  // Correct for rounding the mean to float: sum((x - m')^2) = sum((x - m)^2) + N (m - m')^2.
  const double shift = mean - double(mean_f);
  var_[g] = std::max(0.0, sq / double(count_) - shift * shift);
  mean_[g] = mean;
  rstd_[g] = 1.0 / std::sqrt(var_[g] + double(eps_));
}

void StatNormalization::forward_contiguous(const float* x, const float* beta, const float* gamma, float* y) {
  const int64_t bs = beta ? run_stride_ : 0, gs = gamma ? run_stride_ : 0;
  const float* beta_base = beta ? beta : &kZero;
  const float* gamma_base = gamma ? gamma : &kOne;
  const ParamRun* runs = runs_.data();
  parallel_ranges(groups_, groups_ * count_, [&](int64_t g0, int64_t g1, int) {
    for (int64_t g = g0; g < g1; ++g) {
      compute_group_stats(x, g);
      const float mean = float(mean_[g]), rstd = float(rstd_[g]);
      const ParamRun* group_runs = runs + (run_stride_ ? 0 : g * runs_per_group_);  // unit-stride: shared
      for (int64_t r = 0; r < runs_per_group_; ++r) {
        const ParamRun& run = group_runs[r];
        const float* xr = x + g * count_ + run.begin;
        float* yr = y + g * count_ + run.begin;
        const float* br = beta_base + (beta ? run.beta : 0);
        const float* gr = gamma_base + (gamma ? run.gamma : 0);
        with_param_strides(bs, gs, [&](auto sb, auto sg) {
#pragma omp simd
          for (int64_t k = 0; k < run.len; ++k) yr[k] = (xr[k] - mean) * rstd * gr[sg * k] + br[sb * k];
        });
      }
    }
  });
}

void StatNormalization::backward_contiguous(const Variables& in, const Variables& out,
                                            const std::vector<bool>& prop, const std::vector<bool>& accum) {
  const float* x = in_data(in[0]);
  const float* dy = out_grad(out[0]);
  const float* gamma = gamma_ < 0 ? nullptr : in_data(in[gamma_]);
  const float* dmean_out = out.size() == 3 ? out_grad(out[1]) : nullptr;
  const float* dvar_out = out.size() == 3 ? out_grad(out[2]) : nullptr;
  const bool want_beta = beta_ >= 0 && prop[beta_], want_gamma = gamma_ >= 0 && prop[gamma_];
  const bool want_x = prop[0];
  const int64_t gs = gamma ? run_stride_ : 0;
  const float* gamma_base = gamma ? gamma : &kOne;
  const int64_t params =
      std::max(beta_ < 0 ? int64_t(0) : in[beta_]->size(), gamma_ < 0 ? int64_t(0) : in[gamma_]->size());
  const int64_t work = groups_ * count_;
  // Per-thread sums of dy (beta) and dy * x_hat (gamma), added up at the end.
  const int buffers = parallel_range_count(work);
  std::vector<double> param_sums(size_t(want_beta || want_gamma ? 2 * buffers * params : 0), 0.0);
  const ParamRun* runs = runs_.data();
  const double inv_n = 1.0 / double(count_);
  float* dx = want_x ? in_grad(in[0], accum[0]) : nullptr;
  const bool acc_x = want_x && accum[0];
  parallel_ranges(groups_, work, [&](int64_t g0, int64_t g1, int t) {
    double* dbeta_sum = param_sums.empty() ? nullptr : param_sums.data() + 2 * t * params;
    double* dgamma_sum = dbeta_sum ? dbeta_sum + params : nullptr;
    for (int64_t g = g0; g < g1; ++g) {
      compute_group_stats(x, g);  // backward may run without a forward on these buffers
      const float mean = float(mean_[g]), rstd = float(rstd_[g]);
      const ParamRun* group_runs = runs + (run_stride_ ? 0 : g * runs_per_group_);  // unit-stride: shared
      const float* xg = x + g * count_;
      const float* dyg = dy + g * count_;
      double sum_dxh = 0.0, sum_dxh_xh = 0.0;  // with dxh = dy * gamma
      for (int64_t r = 0; r < runs_per_group_; ++r) {
        const ParamRun& run = group_runs[r];
        const float* xr = xg + run.begin;
        const float* dyr = dyg + run.begin;
        const float* gr = gamma_base + (gamma ? run.gamma : 0);
        float s_dy = 0.f, s_dy_xh = 0.f, s_dxh = 0.f, s_dxh_xh = 0.f;
        with_param_strides(0, gs, [&](auto, auto sg) {
#pragma omp simd reduction(+ : s_dy, s_dy_xh, s_dxh, s_dxh_xh)
          for (int64_t k = 0; k < run.len; ++k) {
            const float xh = (xr[k] - mean) * rstd;
            const float dxh = dyr[k] * gr[sg * k];
            s_dy += dyr[k];
            s_dy_xh += dyr[k] * xh;
            s_dxh += dxh;
            s_dxh_xh += dxh * xh;
          }
        });
        sum_dxh += s_dxh;
        sum_dxh_xh += s_dxh_xh;
        if (!dbeta_sum) continue;
        if (run_stride_) {  // per-position parameters: accumulate elementwise
          double* db = dbeta_sum + run.beta;
          double* dg = dgamma_sum + run.gamma;
#pragma omp simd
          for (int64_t k = 0; k < run.len; ++k) {
            db[k] += dyr[k];
            dg[k] += dyr[k] * ((xr[k] - mean) * rstd);
          }
        } else {
          dbeta_sum[run.beta] += s_dy;
          dgamma_sum[run.gamma] += s_dy_xh;
        }
      }
      if (!dx) continue;
      // dx = rstd * (dxh - mean(dxh) - xh * mean(dxh * xh)) + dmean_out / N + dvar_out * 2 (x - m) / N.
      const float mean_dxh = float(sum_dxh * inv_n), mean_dxh_xh = float(sum_dxh_xh * inv_n);
      const float c_mean = dmean_out ? float(dmean_out[g] * inv_n) : 0.f;
      const float c_var = dvar_out ? float(2.0 * dvar_out[g] * inv_n) : 0.f;
      float* dxg = dx + g * count_;
      for (int64_t r = 0; r < runs_per_group_; ++r) {
        const ParamRun& run = group_runs[r];
        const float* xr = xg + run.begin;
        const float* dyr = dyg + run.begin;
        const float* gr = gamma_base + (gamma ? run.gamma : 0);
        float* dxr = dxg + run.begin;
        with_param_strides(0, gs, [&](auto, auto sg) {
          auto grad_at = [&](int64_t k) {
            const float xc = xr[k] - mean;
            const float xh = xc * rstd;
            return rstd * (dyr[k] * gr[sg * k] - mean_dxh - xh * mean_dxh_xh) + c_mean + c_var * xc;
          };
          if (acc_x) {
#pragma omp simd
            for (int64_t k = 0; k < run.len; ++k) dxr[k] += grad_at(k);
          } else {
#pragma omp simd
            for (int64_t k = 0; k < run.len; ++k) dxr[k] = grad_at(k);
          }
        });
      }
    }
  });
  auto store_param_grad = [&](int index, int64_t which) {
    float* g = in_grad(in[index], accum[index]);
    const int64_t size = in[index]->size();
    for (int64_t p = 0; p < size; ++p) {
      double s = 0.0;
      for (int b = 0; b < buffers; ++b) s += param_sums[size_t((2 * b + which) * params + p)];
      store_grad(g, p, float(s), accum[index]);
    }
  };
  if (want_beta) store_param_grad(beta_, 0);
  if (want_gamma) store_param_grad(gamma_, 1);
}

}  // namespace nn::ops
