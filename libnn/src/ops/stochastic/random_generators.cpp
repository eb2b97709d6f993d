// Rand, Randint, Randn, RandBinomial, RandBeta, RandGamma: inputless random arrays of `shape` drawn with the
// function's seed (or the global generator for seed -1). Forward only, as upstream.
#include <random>

#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Shared shape handling; subclasses fill the output from their distribution.
class RandomGenerator : public Function {
 public:
  RandomGenerator(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), random_(attrs_.get_int("seed")) {}
  bool is_stochastic() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  virtual void check_args() const {}
  // Writes n samples (one distribution object per call, so the argument lookups are done once).
  virtual void fill(RandomEngine& g, float* y, int64_t n) = 0;
  template <class D>
  static void fill_with(D dist, RandomEngine& g, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = float(dist(g));
  }

  void setup_impl(const Variables&, const Variables& out) override {
    const Shape shape = attrs_.get_ints("shape");
    check_shape(shape, type() + ": shape");
    check_args();
    out[0]->reshape(shape, true);
  }
  void forward_impl(const Variables&, const Variables& out) override {
    fill(random_.engine(), out_data(out[0]), out[0]->size());
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

  SeededRandom random_;
};

class Rand : public RandomGenerator {
 public:
  using RandomGenerator::RandomGenerator;

 protected:
  void check_args() const override {
    NN_CHECK(attrs_.get_float("high") > attrs_.get_float("low"))
        << "Rand: high " << attrs_.get_float("high") << " must be greater than low " << attrs_.get_float("low");
  }
  void fill(RandomEngine& g, float* y, int64_t n) override {
    fill_with(
        std::uniform_real_distribution<float>(float(attrs_.get_float("low")), float(attrs_.get_float("high"))), g,
        y, n);
  }
};

class Randint : public RandomGenerator {
 public:
  using RandomGenerator::RandomGenerator;

 protected:
  void check_args() const override {
    NN_CHECK(attrs_.get_int("high") > attrs_.get_int("low"))
        << "Randint: high " << attrs_.get_int("high") << " must be greater than low " << attrs_.get_int("low");
  }
  void fill(RandomEngine& g, float* y, int64_t n) override {
    fill_with(std::uniform_int_distribution<int64_t>(attrs_.get_int("low"), attrs_.get_int("high") - 1), g, y, n);
  }
};

class Randn : public RandomGenerator {
 public:
  using RandomGenerator::RandomGenerator;

 protected:
  void check_args() const override {
    NN_CHECK(attrs_.get_float("sigma") > 0) << "Randn: sigma must be positive, got " << attrs_.get_float("sigma");
  }
  void fill(RandomEngine& g, float* y, int64_t n) override {
    fill_with(std::normal_distribution<float>(float(attrs_.get_float("mu")), float(attrs_.get_float("sigma"))), g,
              y, n);
  }
};

class RandBinomial : public RandomGenerator {
 public:
  using RandomGenerator::RandomGenerator;

 protected:
  void check_args() const override {
    const double p = attrs_.get_float("p");
    NN_CHECK(attrs_.get_int("n") > 0 && p >= 0 && p <= 1)
        << "RandBinomial: n must be positive and p in [0, 1], got n " << attrs_.get_int("n") << ", p " << p;
  }
  void fill(RandomEngine& g, float* y, int64_t n) override {
    fill_with(std::binomial_distribution<int64_t>(attrs_.get_int("n"), attrs_.get_float("p")), g, y, n);
  }
};

class RandBeta : public RandomGenerator {
 public:
  using RandomGenerator::RandomGenerator;

 protected:
  void check_args() const override {
    NN_CHECK(attrs_.get_float("alpha") > 0 && attrs_.get_float("beta") > 0)
        << "RandBeta: alpha and beta must be positive, got " << attrs_.get_float("alpha") << ", "
        << attrs_.get_float("beta");
  }
  // Beta(a, b) = X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b).
  void fill(RandomEngine& g, float* y, int64_t n) override {
    std::gamma_distribution<double> ga(attrs_.get_float("alpha")), gb(attrs_.get_float("beta"));
    for (int64_t i = 0; i < n; ++i) {
      const double a = ga(g), b = gb(g);
      y[i] = a + b > 0 ? float(a / (a + b)) : 0.5f;
    }
  }
};

class RandGamma : public RandomGenerator {
 public:
  using RandomGenerator::RandomGenerator;

 protected:
  void check_args() const override {
    NN_CHECK(attrs_.get_float("k") > 0 && attrs_.get_float("theta") > 0)
        << "RandGamma: k and theta must be positive, got " << attrs_.get_float("k") << ", "
        << attrs_.get_float("theta");
  }
  void fill(RandomEngine& g, float* y, int64_t n) override {
    fill_with(std::gamma_distribution<float>(float(attrs_.get_float("k")), float(attrs_.get_float("theta"))), g, y,
              n);
  }
};

// Schema of a generator: the distribution's arguments first, then shape and seed.
template <class F>
void register_generator(OpRegistry& r, const char* name, const char* doc,
                        std::vector<std::pair<const char*, AttrValue>> dist_args) {
  SchemaBuilder b(name, "Stochasticity");
  b.doc(doc);
  for (auto& [arg, def] : dist_args)
    b.arg(arg, std::holds_alternative<int64_t>(def) ? AttrType::kInt : AttrType::kFloat, def);
  b.arg("shape", AttrType::kShape, AttrValue(std::vector<int64_t>{}))
      .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)))
      .out("y");
  register_cpu<F>(r, b.build());
}

}  // namespace

void register_rand(OpRegistry& r) {
  register_generator<Rand>(r, "Rand", "uniform samples in [low, high)", {{"low", 0.0}, {"high", 1.0}});
}
void register_randint(OpRegistry& r) {
  register_generator<Randint>(r, "Randint", "uniform integers in [low, high)",
                              {{"low", int64_t(0)}, {"high", int64_t(1)}});
}
void register_randn(OpRegistry& r) {
  register_generator<Randn>(r, "Randn", "normal samples N(mu, sigma^2)", {{"mu", 0.0}, {"sigma", 1.0}});
}
void register_rand_binomial(OpRegistry& r) {
  register_generator<RandBinomial>(r, "RandBinomial", "binomial samples B(n, p)", {{"n", int64_t(1)}, {"p", 0.5}});
}
void register_rand_beta(OpRegistry& r) {
  register_generator<RandBeta>(r, "RandBeta", "beta samples Beta(alpha, beta)", {{"alpha", 0.5}, {"beta", 0.5}});
}
void register_rand_gamma(OpRegistry& r) {
  register_generator<RandGamma>(r, "RandGamma", "gamma samples Gamma(k, theta)", {{"k", 0.5}, {"theta", 1.0}});
}

}  // namespace nn::ops
