// Einsum: Einstein summation over any number of inputs (letters, repeated letters for diagonals, one
// broadcasting ellipsis per term, implicit output when "->" is absent), forward and backward by index loops.
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// The summation as loop variables (letters and ellipsis dims) and, per operand, a stride per variable.
struct EinsumPlan {
  std::vector<int64_t> sizes;                 // per loop variable
  std::vector<std::vector<int64_t>> strides;  // per operand (inputs, then output), per loop variable
  Shape out_shape;
};

std::vector<std::string> split_terms(const std::string& s) {
  std::vector<std::string> terms(1);
  for (char c : s) {
    if (c == ',')
      terms.emplace_back();
    else
      terms.back().push_back(c);
  }
  return terms;
}

EinsumPlan plan_einsum(const std::string& equation, const std::vector<Shape>& shapes) {
  std::string eq;
  for (size_t i = 0; i < equation.size(); ++i) {
    const char c = equation[i];
    if (c == ' ') continue;
    if (equation.compare(i, 3, "...") == 0) {
      eq.push_back('.');
      i += 2;
    } else {
      NN_CHECK(std::isalpha(static_cast<unsigned char>(c)) || c == ',' || c == '-' || c == '>')
          << "Einsum: equation '" << equation << "' may only hold letters, ',', '...' and '->'";
      eq.push_back(c);
    }
  }
  const size_t arrow = eq.find("->");
  const auto inputs = split_terms(eq.substr(0, arrow));
  NN_CHECK(inputs.size() == shapes.size()) << "Einsum: equation '" << equation << "' has " << inputs.size()
                                           << " input terms for " << shapes.size() << " inputs";
  std::string output;
  if (arrow != std::string::npos) {
    output = eq.substr(arrow + 2);
    NN_CHECK(output.find_first_of(",->") == std::string::npos)
        << "Einsum: bad output term in '" << equation << "'";
  } else {
    std::map<char, int> count;
    bool ellipsis = false;
    for (const auto& t : inputs)
      for (char c : t) c == '.' ? void(ellipsis = true) : void(++count[c]);
    if (ellipsis) output.push_back('.');
    for (auto [c, n] : count)
      if (n == 1) output.push_back(c);
  }
  // Ellipsis rank: the same for every input that has one.
  int64_t ell = -1;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& t = inputs[i];
    NN_CHECK(!t.empty()) << "Einsum: equation '" << equation << "' has an empty input term";
    const auto dots = std::count(t.begin(), t.end(), '.');
    NN_CHECK(dots <= 1) << "Einsum: only one ellipsis per term in '" << equation << "'";
    const int64_t rank = int64_t(shapes[i].size()), letters = int64_t(t.size()) - dots;
    NN_CHECK(dots ? rank >= letters : rank == letters)
        << "Einsum: term '" << t << "' does not match input " << i << " of shape " << to_string(shapes[i]);
    if (dots) {
      NN_CHECK(ell < 0 || ell == rank - letters) << "Einsum: ellipses of '" << equation << "' differ in rank";
      ell = rank - letters;
    }
  }
  ell = std::max<int64_t>(ell, 0);

  // Loop variables: ellipsis dims first, then letters in order of appearance.
  EinsumPlan p;
  std::map<char, size_t> var;
  p.sizes.assign(size_t(ell), 1);
  for (const auto& t : inputs)
    for (char c : t)
      if (c != '.' && !var.count(c)) {
        var[c] = p.sizes.size();
        p.sizes.push_back(-1);
      }
  auto add_operand = [&](const std::string& t, const Shape& shape, bool is_output) {
    std::vector<int64_t> st(p.sizes.size(), 0);
    std::vector<int64_t> dim_vars;  // loop variable of each dim
    std::string dim_labels;
    for (char c : t) {
      if (c == '.') {
        for (int64_t e = 0; e < ell; ++e) dim_vars.push_back(e);
        dim_labels.append(size_t(ell), '.');
      } else {
        dim_labels.push_back(c);
        NN_CHECK(var.count(c)) << "Einsum: output label '" << c << "' of '" << equation << "' is in no input";
        dim_vars.push_back(int64_t(var[c]));
      }
    }
    int64_t stride = 1;
    for (size_t d = dim_vars.size(); d-- > 0;) {
      const size_t v = size_t(dim_vars[d]);
      const int64_t n = is_output ? p.sizes[v] : shape[d];
      if (!is_output) {
        const bool is_ellipsis = int64_t(v) < ell;
        if (is_ellipsis) {
          NN_CHECK(n == 1 || p.sizes[v] == 1 || n == p.sizes[v])
              << "Einsum: ellipsis dims of " << to_string(shape) << " do not broadcast in '" << equation << "'";
          p.sizes[v] = std::max(p.sizes[v], n);
        } else {
          NN_CHECK(p.sizes[v] < 0 || p.sizes[v] == n)
              << "Einsum: label '" << dim_labels[d] << "' has different sizes in '" << equation << "'";
          p.sizes[v] = n;
        }
        if (n != 1) st[v] += stride;
      } else {
        NN_CHECK(st[v] == 0) << "Einsum: output term '" << t << "' repeats a label";
        st[v] = stride;
      }
      stride *= n;
    }
    p.strides.push_back(st);
    return dim_vars;
  };
  for (size_t i = 0; i < inputs.size(); ++i) add_operand(inputs[i], shapes[i], false);
  // Ellipsis dims broadcast to size 1 in an input keep stride 0 (set above, n == 1); the output term uses the
  // final sizes.
  for (const auto& v : add_operand(output, {}, true)) p.out_shape.push_back(p.sizes[size_t(v)]);
  return p;
}

// Visits every point of the loop space with the running offset of each operand.
template <class F>
void for_each_point(const EinsumPlan& p, F&& f) {
  const size_t nv = p.sizes.size(), nops = p.strides.size();
  for (auto s : p.sizes)
    if (s == 0) return;
  std::vector<int64_t> idx(nv, 0), off(nops, 0);
  while (true) {
    f(off);
    size_t v = nv;
    while (v-- > 0) {
      for (size_t k = 0; k < nops; ++k) off[k] += p.strides[k][v];
      if (++idx[v] < p.sizes[v]) break;
      for (size_t k = 0; k < nops; ++k) off[k] -= p.strides[k][v] * p.sizes[v];
      idx[v] = 0;
    }
    if (v == size_t(-1)) return;
  }
}

class Einsum : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    std::vector<Shape> shapes;
    for (auto* v : in) shapes.push_back(v->shape());
    plan_ = plan_einsum(attrs_.get_string("equation", ""), shapes);
    out[0]->reshape(plan_.out_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const size_t n = in.size();
    std::vector<const float*> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = in_data(in[i]);
    std::vector<double> y(size_t(out[0]->size()), 0.0);
    for_each_point(plan_, [&](const std::vector<int64_t>& off) {
      double prod = 1.0;
      for (size_t i = 0; i < n; ++i) prod *= x[i][off[i]];
      y[size_t(off[n])] += prod;
    });
    float* yp = out_data(out[0]);
    for (size_t i = 0; i < y.size(); ++i) yp[i] = float(y[i]);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const size_t n = in.size();
    std::vector<const float*> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = in_data(in[i]);
    const float* dy = out_grad(out[0]);
    for (size_t k = 0; k < n; ++k) {
      if (!prop[k]) continue;
      std::vector<double> g(size_t(in[k]->size()), 0.0);
      for_each_point(plan_, [&](const std::vector<int64_t>& off) {
        double prod = dy[off[n]];
        for (size_t i = 0; i < n; ++i)
          if (i != k) prod *= x[i][off[i]];
        g[size_t(off[k])] += prod;
      });
      float* gp = in_grad(in[k], accum[k]);
      for (size_t j = 0; j < g.size(); ++j) gp[j] = accum[k] ? gp[j] + float(g[j]) : float(g[j]);
    }
  }

 private:
  EinsumPlan plan_;
};

}  // namespace

void register_einsum(OpRegistry& r) {
  register_cpu<Einsum>(r, SchemaBuilder("Einsum", "Unsupported, Special Use")
                              .doc("Einstein summation over the inputs")
                              .in_variadic("x")
                              .arg("equation", AttrType::kString)
                              .out("y")
                              .build());
}

}  // namespace nn::ops
