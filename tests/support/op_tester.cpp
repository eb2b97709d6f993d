// Implementation of the per-op tester.
#include "op_tester.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "backend_compare.hpp"
#include "nn/core/context.hpp"
#include "nn/core/error.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::test {

int64_t ref_size(const Shape& s) { return shape_size(s); }

RefArray random_input(const Shape& shape, std::mt19937& rng, double lo, double hi,
                      const std::vector<double>& avoid, double margin) {
  std::uniform_real_distribution<double> u(lo, hi);
  RefArray a{shape, std::vector<double>(size_t(shape_size(shape)))};
  for (auto& v : a.data) {
    for (int tries = 0; tries < 100; ++tries) {
      v = double(float(u(rng)));
      bool near = false;
      for (double k : avoid) near |= std::fabs(v - k) < margin;
      if (!near) break;
    }
  }
  return a;
}

RefArray random_labels(const Shape& shape, std::mt19937& rng, int64_t n) {
  std::uniform_int_distribution<int64_t> u(0, n - 1);
  RefArray a{shape, std::vector<double>(size_t(shape_size(shape)))};
  for (auto& v : a.data) v = double(u(rng));
  return a;
}

namespace {

struct Built {
  FunctionPtr f;
  std::vector<VariablePtr> in, out;
  Variables raw_in() const {
    Variables r;
    for (auto& v : in) r.push_back(v.get());
    return r;
  }
  Variables raw_out() const {
    Variables r;
    for (auto& v : out) r.push_back(v.get());
    return r;
  }
};

Built build(const OpTestCase& tc) {
  Built b;
  b.f = OpRegistry::instance().create(tc.type, tc.attrs, cpu_context());
  for (const auto& a : tc.inputs) {
    auto v = Variable::create(a.shape, true);
    float* p = v->data()->cast<float>(true);
    for (size_t i = 0; i < a.data.size(); ++i) p[i] = float(a.data[i]);
    b.in.push_back(v);
  }
  std::vector<Shape> shapes;
  for (const auto& v : b.in) shapes.push_back(v->shape());
  int n = b.f->num_outputs(shapes);
  for (int i = 0; i < n; ++i) b.out.push_back(Variable::create());
  b.f->setup(b.raw_in(), b.raw_out());
  return b;
}

double weighted_sum(const std::vector<RefArray>& ys, const std::vector<std::vector<double>>& g) {
  double s = 0;
  for (size_t o = 0; o < ys.size() && o < g.size(); ++o)
    for (size_t i = 0; i < ys[o].data.size(); ++i) s += g[o][i] * ys[o].data[i];
  return s;
}

void expect_close(const char* what, double got, double want, double atol, double rtol, const std::string& where) {
  EXPECT_LE(std::fabs(got - want), atol + rtol * std::fabs(want))
      << what << " mismatch at " << where << ": got " << got << ", want " << want;
}

// Every other registered float kernel of the op (cuda:float, cudnn:float) against cpu:float on the case's inputs
// and output grads (backend_compare.hpp). Backends without a device are skipped.
void compare_backends(const OpTestCase& tc, const std::vector<std::vector<double>>& g,
                      const std::vector<bool>& wanted) {
  if (ops_not_compared_with_cpu().count(tc.type)) return;
  BackendCase c;
  c.op = tc.type;
  c.attrs = tc.attrs;
  for (const auto& a : tc.inputs) {
    c.shapes.push_back(a.shape);
    c.values.emplace_back(a.data.begin(), a.data.end());
  }
  for (const auto& go : g) c.output_grads.emplace_back(go.begin(), go.end());
  c.grad = wanted;
  c.atol = tc.atol;
  c.rtol = tc.rtol;
  c.backward = tc.check_backward;
  (void)load_gpu_backend();  // its kernels join the registry (a build without CUDA has none)
  for (const std::string& kernel : OpRegistry::instance().kernels(tc.type)) {
    if (kernel.rfind("cpu:", 0) == 0 || kernel.find(":float") == std::string::npos) continue;
    try {
      check_context_available(parse_context(kernel));
    } catch (const Error&) {
      continue;  // no device for this backend here
    }
    c.context = kernel;
    compare_with_cpu(c);
  }
}

}  // namespace

// Dropout draws its mask from the device's generator, and ImageAugmentation rounds its sampling positions
// differently (tests/gpu checks both by statistics and 1e-3).
const std::set<std::string>& ops_not_compared_with_cpu() {
  static const std::set<std::string> ops = {"Dropout", "ImageAugmentation"};
  return ops;
}

void run_op_test(const OpTestCase& tc) {
  SCOPED_TRACE(tc.type);
  auto ref_out = tc.reference(tc.inputs, tc.attrs);
  Built b = build(tc);
  ASSERT_EQ(b.out.size(), ref_out.size()) << "output count";
  b.f->forward(b.raw_in(), b.raw_out());
  for (size_t o = 0; o < ref_out.size(); ++o) {
    ASSERT_EQ(to_string(b.out[o]->shape()), to_string(ref_out[o].shape)) << "output " << o << " shape";
    auto y = b.out[o]->data()->to_vector();
    int bad = 0;
    for (size_t i = 0; i < y.size() && bad < 5; ++i) {
      double want = ref_out[o].data[i];
      if (std::fabs(y[i] - want) > tc.atol + tc.rtol * std::fabs(want)) {
        ++bad;
        ADD_FAILURE() << "forward output " << o << "[" << i << "]: got " << y[i] << ", want " << want;
      }
    }
  }

  // Random output grads g; analytic input grads from backward; numeric from the reference.
  std::mt19937 rng(tc.seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::vector<double>> g(ref_out.size());
  for (size_t o = 0; o < ref_out.size(); ++o) {
    g[o].resize(ref_out[o].data.size());
    bool used = tc.skip_outputs_for_grad < 0 || int(o) < tc.skip_outputs_for_grad;
    for (auto& v : g[o]) v = used ? double(float(u(rng))) : 0.0;
  }
  auto set_out_grads = [&](Built& bb) {
    for (size_t o = 0; o < bb.out.size(); ++o) {
      float* p = bb.out[o]->grad()->cast<float>(true);
      for (size_t i = 0; i < g[o].size(); ++i) p[i] = float(g[o][i]);
    }
  };
  const size_t nin = tc.inputs.size();
  std::vector<bool> wanted(nin, true);
  for (size_t i = 0; i < nin && i < tc.check_grad.size(); ++i) wanted[i] = tc.check_grad[i];
  compare_backends(tc, g, wanted);
  if (!tc.check_backward || !b.f->has_backward()) return;

  set_out_grads(b);
  b.f->backward(b.raw_in(), b.raw_out(), wanted, std::vector<bool>(nin, false));
  std::vector<std::vector<float>> analytic(nin);
  for (size_t i = 0; i < nin; ++i)
    if (wanted[i]) analytic[i] = b.in[i]->grad()->to_vector();

  for (size_t i = 0; i < nin; ++i) {
    if (!wanted[i]) continue;
    RefInputs x = tc.inputs;
    for (size_t j = 0; j < x[i].data.size(); ++j) {
      double orig = x[i].data[j];
      x[i].data[j] = orig + tc.eps;
      double fp = weighted_sum(tc.reference(x, tc.attrs), g);
      x[i].data[j] = orig - tc.eps;
      double fm = weighted_sum(tc.reference(x, tc.attrs), g);
      x[i].data[j] = orig;
      double num = (fp - fm) / (2 * tc.eps);
      expect_close("backward", analytic[i][j], num, tc.grad_atol, tc.grad_rtol,
                   "input " + std::to_string(i) + "[" + std::to_string(j) + "]");
      if (::testing::Test::HasFailure() && j > 8) break;
    }
  }

  // accum=true adds onto pre-filled grads; propagate_down=false leaves grads untouched.
  Built b2 = build(tc);
  b2.f->forward(b2.raw_in(), b2.raw_out());
  set_out_grads(b2);
  std::vector<std::vector<float>> prefill(nin);
  for (size_t i = 0; i < nin; ++i) {
    float* p = b2.in[i]->grad()->cast<float>(true);
    prefill[i].resize(size_t(b2.in[i]->size()));
    for (size_t j = 0; j < prefill[i].size(); ++j) p[j] = prefill[i][j] = float(u(rng));
  }
  b2.f->backward(b2.raw_in(), b2.raw_out(), wanted, std::vector<bool>(nin, true));
  for (size_t i = 0; i < nin; ++i) {
    auto got = b2.in[i]->grad()->to_vector();
    for (size_t j = 0; j < got.size(); ++j) {
      double want = prefill[i][j] + (wanted[i] ? analytic[i][j] : 0.f);
      expect_close(wanted[i] ? "accum" : "propagate_down=false", got[j], want, 1e-5, 1e-5,
                   "input " + std::to_string(i) + "[" + std::to_string(j) + "]");
    }
  }
  for (size_t k = 0; k < nin; ++k) {
    if (!wanted[k]) continue;
    Built b3 = build(tc);
    b3.f->forward(b3.raw_in(), b3.raw_out());
    set_out_grads(b3);
    float* p = b3.in[k]->grad()->cast<float>(true);
    for (int64_t j = 0; j < b3.in[k]->size(); ++j) p[j] = 42.f;
    std::vector<bool> prop = wanted;
    prop[k] = false;
    b3.f->backward(b3.raw_in(), b3.raw_out(), prop, std::vector<bool>(nin, false));
    auto got = b3.in[k]->grad()->to_vector();
    for (size_t j = 0; j < got.size(); ++j)
      ASSERT_EQ(got[j], 42.f) << "propagate_down=false changed grad of input " << k;
  }
}

}  // namespace nn::test
