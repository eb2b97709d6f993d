// Parameter initializers of .nntxt: nnabla's fan-in/fan-out rules, numpy-compatible sampling on MT19937.
#include "nn/ir/initializer.hpp"

#include <cmath>
#include <map>

#include "nn/core/error.hpp"

namespace nn {
namespace {

enum class Distribution { kNormal, kUniform };
enum class Layout { kAffine, kConvolution, kChannelLastConvolution };
enum class FanRule { kHeForward, kHeBackward, kGlorot };

struct FanInitializer {
  Distribution distribution;
  Layout layout;
  FanRule rule;
};

const std::map<std::string, FanInitializer>& fan_initializers() {
  using D = Distribution;
  using L = Layout;
  using R = FanRule;
  static const std::map<std::string, FanInitializer> table = {
      {"NormalAffineHe", {D::kNormal, L::kAffine, R::kHeForward}},
      {"NormalAffineHeForward", {D::kNormal, L::kAffine, R::kHeForward}},
      {"NormalAffineHeBackward", {D::kNormal, L::kAffine, R::kHeBackward}},
      {"NormalAffineGlorot", {D::kNormal, L::kAffine, R::kGlorot}},
      {"UniformAffineGlorot", {D::kUniform, L::kAffine, R::kGlorot}},
      {"NormalConvolutionHe", {D::kNormal, L::kConvolution, R::kHeForward}},
      {"NormalConvolutionHeForward", {D::kNormal, L::kConvolution, R::kHeForward}},
      {"NormalConvolutionHeBackward", {D::kNormal, L::kConvolution, R::kHeBackward}},
      {"NormalConvolutionGlorot", {D::kNormal, L::kConvolution, R::kGlorot}},
      {"UniformConvolutionGlorot", {D::kUniform, L::kConvolution, R::kGlorot}},
      {"NormalCLConvHe", {D::kNormal, L::kChannelLastConvolution, R::kHeForward}},
      {"NormalCLConvHeForward", {D::kNormal, L::kChannelLastConvolution, R::kHeForward}},
      {"NormalCLConvHeBackward", {D::kNormal, L::kChannelLastConvolution, R::kHeBackward}},
      {"NormalCLConvGlorot", {D::kNormal, L::kChannelLastConvolution, R::kGlorot}},
      {"UniformCLConvGlorot", {D::kUniform, L::kChannelLastConvolution, R::kGlorot}},
  };
  return table;
}

// Input maps, output maps and kernel size as nnabla reads them from a weight shape.
struct Fans {
  double in, out, kernel;
};

Fans compute_fans(const std::string& type, Layout layout, const Shape& shape) {
  const size_t n = shape.size();
  switch (layout) {
    case Layout::kAffine:
      NN_CHECK(n >= 1) << "initializer " << type << ": parameter shape " << shape << " needs at least 1 dimension";
      return {double(shape[0]), double(shape_size(shape, 1, n)), 1.0};
    case Layout::kConvolution:
      NN_CHECK(n >= 3) << "initializer " << type << ": parameter shape " << shape
                       << " needs at least 3 dimensions (outmaps, inmaps, kernel...)";
      return {double(shape[n - 3]), double(shape[0]), double(shape[n - 2] * shape[n - 1])};
    case Layout::kChannelLastConvolution:
      NN_CHECK(n >= 2) << "initializer " << type << ": parameter shape " << shape
                       << " needs at least 2 dimensions (outmaps, kernel..., inmaps)";
      return {double(shape[n - 1]), double(shape[0]), double(shape_size(shape, 1, 3))};
  }
  return {1.0, 1.0, 1.0};
}

double fan_scale(const std::string& type, const FanInitializer& init, const Shape& shape) {
  const Fans f = compute_fans(type, init.layout, shape);
  double denom = 0.0;
  switch (init.rule) {
    case FanRule::kHeForward: denom = f.kernel * f.in; break;
    case FanRule::kHeBackward: denom = f.kernel * f.out; break;
    case FanRule::kGlorot: denom = f.kernel * (f.in + f.out); break;
  }
  NN_CHECK(denom > 0) << "initializer " << type << ": parameter shape " << shape << " has an empty fan";
  const double numerator = init.distribution == Distribution::kUniform ? 6.0 : 2.0;
  return std::sqrt(numerator / denom);
}

// numpy's legacy gauss: Marsaglia's polar method, two normals per accepted pair.
class PolarNormal {
 public:
  explicit PolarNormal(RandomEngine& rng) : rng_(rng) {}
  double next() {
    if (has_cached_) {
      has_cached_ = false;
      return cached_;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * random_double01(rng_) - 1.0;
      x2 = 2.0 * random_double01(rng_) - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    const double f = std::sqrt(-2.0 * std::log(r2) / r2);
    cached_ = f * x1;
    has_cached_ = true;
    return f * x2;
  }

 private:
  RandomEngine& rng_;
  bool has_cached_ = false;
  double cached_ = 0.0;
};

void fill_normal(float* out, int64_t n, double sigma, double multiplier, RandomEngine& rng) {
  PolarNormal normal(rng);
  for (int64_t i = 0; i < n; ++i) out[i] = float(normal.next() * sigma * multiplier);
}

void fill_uniform(float* out, int64_t n, double limit, double multiplier, RandomEngine& rng) {
  for (int64_t i = 0; i < n; ++i) out[i] = float((-limit + 2.0 * limit * random_double01(rng)) * multiplier);
}

}  // namespace

double random_double01(RandomEngine& rng) {
  const uint32_t a = uint32_t(rng()) >> 5;  // 27 bits
  const uint32_t b = uint32_t(rng()) >> 6;  // 26 bits
  return (double(a) * 67108864.0 + double(b)) / 9007199254740992.0;
}

bool is_known_initializer(const std::string& type) {
  return type == "Normal" || type == "Uniform" || type == "Constant" || type == "Range" ||
         fan_initializers().count(type) != 0;
}

double initializer_scale(const std::string& type, const Shape& shape) {
  if (type == "Normal" || type == "Uniform" || type == "Constant" || type == "Range") return 1.0;
  auto it = fan_initializers().find(type);
  return it == fan_initializers().end() ? 0.0 : fan_scale(type, it->second, shape);
}

void initialize_parameter(const std::string& type, double multiplier, const Shape& shape, float* out,
                          RandomEngine& rng) {
  check_shape(shape, "initializer " + type);
  const int64_t n = shape_size(shape);
  if (type == "Normal") {
    fill_normal(out, n, multiplier, 1.0, rng);
  } else if (type == "Uniform") {
    fill_uniform(out, n, multiplier, 1.0, rng);
  } else if (type == "Constant") {
    for (int64_t i = 0; i < n; ++i) out[i] = float(multiplier);
  } else if (type == "Range") {
    const int64_t last = shape.empty() ? 1 : shape.back();
    for (int64_t i = 0; i < n; ++i) out[i] = float(double(i % last) * multiplier);
  } else if (auto it = fan_initializers().find(type); it != fan_initializers().end()) {
    const double scale = fan_scale(type, it->second, shape);
    if (it->second.distribution == Distribution::kNormal) {
      fill_normal(out, n, scale, multiplier, rng);
    } else {
      fill_uniform(out, n, scale, multiplier, rng);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = 0.0f;
  }
}

void initialize_parameter(const std::string& type, double multiplier, NdArray& out, RandomEngine& rng) {
  initialize_parameter(type, multiplier, out.shape(), out.cast<float>(true), rng);
}

}  // namespace nn
