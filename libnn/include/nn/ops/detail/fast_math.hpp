// Vectorizable float exp / sigmoid / tanh (branch-free, no calls: gcc turns loops over them into SIMD).
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace nn::fast {

// cond ? a : b by bit masks. A plain ?: on floats lets gcc sink the computation of one arm into a branch,
// where its possibly trapping float operations block if-conversion and so vectorization.
inline float select(bool cond, float a, float b) {
  const uint32_t mask = 0u - static_cast<uint32_t>(cond);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(a) & mask) | (std::bit_cast<uint32_t>(b) & ~mask));
}

// exp's argument reduction (ln 2 split so that n * kLn2Hi is exact) and its degree-6 minimax polynomial for
// exp(r), |r| <= ln2 / 2: exp(r) = 1 + r + r^2 (((((c0 r + c1) r + c2) r + c3) r + c4) r + c5).
inline constexpr float kLog2e = 1.44269504088896341f;
inline constexpr float kLn2Hi = 0.693359375f;
inline constexpr float kLn2Lo = -2.12194440e-4f;
inline constexpr float kExpPoly[6] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                                      4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};

// exp(r) for |r| <= ln2 / 2 by that polynomial.
inline float exp_polynomial(float r) {
  float p = kExpPoly[0];
  for (int i = 1; i < 6; ++i) p = p * r + kExpPoly[i];
  return p * r * r + r + 1.f;
}

// 2^n for integer n in [-126, 127], built directly in the exponent field.
inline float pow2i(int32_t n) { return std::bit_cast<float>(static_cast<uint32_t>(n + 127) << 23); }

// exp(x) for x <= 0 (softmax's x - max), within 2 ulp down to e^-87.3 and 0 below (where exp would give
// subnormals); NaN stays NaN. Cheaper than exp: one scale factor, no overflow handling, so its loops
// vectorize tightly. It repeats exp's argument reduction on purpose: with one helper for the reduction and
// the polynomial, gcc 12 made softmax's exp loop 40% slower (measured); sharing the polynomial alone costs
// nothing (65k values: 15.8 against 15.6 us).
inline float exp_nonpositive(float x) {
  constexpr float kLowest = -87.3f;  // n >= -126: 2^n is a normal float
  const float xc = x < kLowest ? kLowest : x;
  constexpr float kShifter = 12582912.f;
  const float shifted = xc * kLog2e + kShifter;
  const float fn = shifted - kShifter;
  const float r = (xc - fn * kLn2Hi) - fn * kLn2Lo;
  const float p = exp_polynomial(r);
  const int32_t n = std::bit_cast<int32_t>(shifted) - std::bit_cast<int32_t>(kShifter);
  const float y = p * pow2i(n);
  return x < kLowest ? 0.f : y;
}

// exp(x) within 2 ulp of the correctly rounded value over the whole float range (measured <= 1 ulp on
// normal results); overflows to inf above 88.72, goes through the subnormals to 0 below -87.3, NaN stays
// NaN. exp(x) = 2^n * exp(r), n = round(x / ln 2), |r| <= ln2 / 2, exp(r) by a degree-6 minimax polynomial.
inline float exp(float x) {
  // Clamp to [-104, 89] (n stays in [-150, 129]) on the integer bits, branch-free (see select).
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  const uint32_t magnitude = bits & 0x7fffffffu;
  const uint32_t limit = 0x42b20000u + (bits >> 31) * (0x42d00000u - 0x42b20000u);  // 89 or |-104|
  const float xc = std::bit_cast<float>((bits & 0x80000000u) | std::min(magnitude, limit));
  // Round to nearest by adding 1.5 * 2^23: the integer lands in the low mantissa bits (std::floor would
  // not vectorize without -fno-trapping-math).
  constexpr float kShifter = 12582912.f;
  const float shifted = xc * kLog2e + kShifter;
  const float fn = shifted - kShifter;
  const float r = (xc - fn * kLn2Hi) - fn * kLn2Lo;
  const float p = exp_polynomial(r);
  // Scale by 2^n in two halves so every factor is a normal float: subnormal results and overflow to inf
  // come out of the multiplications themselves.
  const int32_t n = std::bit_cast<int32_t>(shifted) - std::bit_cast<int32_t>(kShifter);
  const int32_t half = n / 2;
  const float y = p * pow2i(half) * pow2i(n - half);
  return select(magnitude > 0x7f800000u, x, y);  // NaN in, NaN out
}

// 1 / (1 + exp(-x)), as e / (1 + e) with e = exp(x) for x < 0 so that tiny results keep their precision
// (below -87.3 the result, < 1.2e-38, is flushed to 0; NaN stays NaN).
inline float sigmoid(float x) {
  const float e = exp_nonpositive(-std::fabs(x));
  const float s = 1.f / (1.f + e);
  return select(x < 0.f, e * s, s);
}

// tanh(x): an odd polynomial for |x| < 0.625 (where 1 - 2 / (e^2x + 1) cancels), that formula elsewhere.
inline float tanh(float x) {
  const float ax = std::fabs(x);
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = x + x * z * p;
  const float large = 1.f - 2.f / (exp(2.f * ax) + 1.f);
  const float big = std::copysign(large, x);
  return select(ax < 0.625f, small, big);
}

// erf(x) within 6e-7 relative (about 5 ulp) of the double value: for |x| < 0.9 its Maclaurin series to x^17
// (the next term is under 2e-8 of the sum there), beyond it Abramowitz and Stegun's 7.1.28,
// 1 - (1 + a1 |x| + ... + a6 |x|^6)^-16 (absolute error 3e-7), with x's sign. Branch-free, so GELU's loops over
// it vectorize (libm's erff, one call per value, took 13 % of a GPT-style decoder's run).
inline float erf(float x) {
  const float ax = std::fabs(x), z = x * x;
  // (-1)^n / (n! (2n + 1)) for n = 8 down to 0, times 2 / sqrt(pi) after the sum
  float s = 1.f / 685440.f;
  s = s * z - 1.f / 75600.f;
  s = s * z + 1.f / 9360.f;
  s = s * z - 1.f / 1320.f;
  s = s * z + 1.f / 216.f;
  s = s * z - 1.f / 42.f;
  s = s * z + 1.f / 10.f;
  s = s * z - 1.f / 3.f;
  s = s * z + 1.f;
  const float series = 1.1283791670955126f * x * s;
  float p = 4.30638e-5f;
  p = p * ax + 2.765672e-4f;
  p = p * ax + 1.520143e-4f;
  p = p * ax + 9.2705272e-3f;
  p = p * ax + 4.22820123e-2f;
  p = p * ax + 7.05230784e-2f;
  p = p * ax + 1.f;
  p *= p;  // p^16 by four squarings
  p *= p;
  p *= p;
  p *= p;
  const float tail = std::copysign(1.f - 1.f / p, x);
  return select(ax < 0.9f, series, tail);
}

}  // namespace nn::fast
