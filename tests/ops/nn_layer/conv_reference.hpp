// Double-precision references for convolution-like ops (direct loops, N-D), shared by the layer tests.
#pragma once
#include <vector>

#include "op_tester.hpp"

namespace nn::test::conv_ref {

struct ConvSpec {
  int64_t base_axis = 1;
  Shape pad, stride, dilation;  // empty: zeros / ones
  int64_t group = 1;
};

// Index of a multi-index in a C-order shape.
inline int64_t flat(const Shape& shape, const std::vector<int64_t>& idx) {
  int64_t f = 0;
  for (size_t d = 0; d < shape.size(); ++d) f = f * shape[d] + idx[d];
  return f;
}

// Advances a multi-index over `shape`; false after the last one.
inline bool next(std::vector<int64_t>& idx, const Shape& shape) {
  for (size_t d = shape.size(); d-- > 0;) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

inline void fill_defaults(ConvSpec& s, size_t nd) {
  if (s.pad.empty()) s.pad.assign(nd, 0);
  if (s.stride.empty()) s.stride.assign(nd, 1);
  if (s.dilation.empty()) s.dilation.assign(nd, 1);
}

// y (batch..., OC, out...) from x (batch..., C, in...) and w (OC, C/group, k...), optional bias (OC).
inline RefArray convolution(const RefArray& x, const RefArray& w, const RefArray* b, ConvSpec s) {
  const size_t nd = w.shape.size() - 2;
  fill_defaults(s, nd);
  const size_t ba = size_t(s.base_axis);
  int64_t batch = 1;
  for (size_t i = 0; i < ba; ++i) batch *= x.shape[i];
  const int64_t c = x.shape[ba], oc = w.shape[0], cg = c / s.group, ocg = oc / s.group;
  Shape in(x.shape.begin() + ba + 1, x.shape.end()), k(w.shape.begin() + 2, w.shape.end()), out;
  for (size_t d = 0; d < nd; ++d)
    out.push_back((in[d] + 2 * s.pad[d] - s.dilation[d] * (k[d] - 1) - 1) / s.stride[d] + 1);
  Shape y_shape(x.shape.begin(), x.shape.begin() + ba);
  y_shape.push_back(oc);
  y_shape.insert(y_shape.end(), out.begin(), out.end());
  RefArray y{y_shape, std::vector<double>(size_t(ref_size(y_shape)), 0.0)};
  const int64_t in_n = ref_size(in), out_n = ref_size(out), k_n = ref_size(k);
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t o = 0; o < oc; ++o) {
      const int64_t g = o / ocg;
      std::vector<int64_t> oi(nd, 0);
      do {
        double acc = b ? b->data[size_t(o)] : 0.0;
        for (int64_t ci = 0; ci < cg; ++ci) {
          std::vector<int64_t> ki(nd, 0), xi(nd);
          do {
            bool inside = true;
            for (size_t d = 0; d < nd; ++d) {
              xi[d] = oi[d] * s.stride[d] - s.pad[d] + ki[d] * s.dilation[d];
              inside &= xi[d] >= 0 && xi[d] < in[d];
            }
            if (!inside) continue;
            const double xv = x.data[size_t((n * c + g * cg + ci) * in_n + flat(in, xi))];
            acc += xv * w.data[size_t((o * cg + ci) * k_n + flat(k, ki))];
          } while (next(ki, k));
        }
        y.data[size_t((n * oc + o) * out_n + flat(out, oi))] = acc;
      } while (next(oi, out));
    }
  return y;
}

// Transposed convolution: x (batch..., IC, in...), w (IC, OC/group, k...), optional bias (OC).
inline RefArray deconvolution(const RefArray& x, const RefArray& w, const RefArray* b, ConvSpec s,
                              Shape output_padding) {
  const size_t nd = w.shape.size() - 2;
  fill_defaults(s, nd);
  if (output_padding.empty()) output_padding.assign(nd, 0);
  const size_t ba = size_t(s.base_axis);
  int64_t batch = 1;
  for (size_t i = 0; i < ba; ++i) batch *= x.shape[i];
  const int64_t ic = x.shape[ba], icg = ic / s.group, ocg = w.shape[1], oc = ocg * s.group;
  Shape in(x.shape.begin() + ba + 1, x.shape.end()), k(w.shape.begin() + 2, w.shape.end()), out;
  for (size_t d = 0; d < nd; ++d)
    out.push_back(s.stride[d] * (in[d] - 1) + s.dilation[d] * (k[d] - 1) + 1 - 2 * s.pad[d] + output_padding[d]);
  Shape y_shape(x.shape.begin(), x.shape.begin() + ba);
  y_shape.push_back(oc);
  y_shape.insert(y_shape.end(), out.begin(), out.end());
  RefArray y{y_shape, std::vector<double>(size_t(ref_size(y_shape)), 0.0)};
  const int64_t in_n = ref_size(in), out_n = ref_size(out), k_n = ref_size(k);
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t o = 0; o < oc; ++o)
      for (int64_t i = 0; i < out_n; ++i) y.data[size_t((n * oc + o) * out_n + i)] = b ? b->data[size_t(o)] : 0.0;
    for (int64_t ci = 0; ci < ic; ++ci) {
      const int64_t g = ci / icg;
      std::vector<int64_t> ii(nd, 0);
      do {
        const double xv = x.data[size_t((n * ic + ci) * in_n + flat(in, ii))];
        for (int64_t oo = 0; oo < ocg; ++oo) {
          std::vector<int64_t> ki(nd, 0), yi(nd);
          do {
            bool inside = true;
            for (size_t d = 0; d < nd; ++d) {
              yi[d] = ii[d] * s.stride[d] - s.pad[d] + ki[d] * s.dilation[d];
              inside &= yi[d] >= 0 && yi[d] < out[d];
            }
            if (!inside) continue;
            y.data[size_t((n * oc + g * ocg + oo) * out_n + flat(out, yi))] +=
                xv * w.data[size_t((ci * ocg + oo) * k_n + flat(k, ki))];
          } while (next(ki, k));
        }
      } while (next(ii, in));
    }
  }
  return y;
}

// Affine: x flattened at base_axis times w (inputs, outputs...), optional bias of shape w.shape[1:].
inline RefArray affine(const RefArray& x, const RefArray& w, const RefArray* b, int64_t base_axis) {
  int64_t rows = 1;
  for (int64_t i = 0; i < base_axis; ++i) rows *= x.shape[size_t(i)];
  const int64_t inputs = w.shape[0], outputs = ref_size(w.shape) / inputs;
  Shape y_shape(x.shape.begin(), x.shape.begin() + base_axis);
  y_shape.insert(y_shape.end(), w.shape.begin() + 1, w.shape.end());
  RefArray y{y_shape, std::vector<double>(size_t(rows * outputs), 0.0)};
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < outputs; ++j) {
      double acc = b ? b->data[size_t(j)] : 0.0;
      for (int64_t i = 0; i < inputs; ++i) acc += x.data[size_t(r * inputs + i)] * w.data[size_t(i * outputs + j)];
      y.data[size_t(r * outputs + j)] = acc;
    }
  return y;
}

}  // namespace nn::test::conv_ref
