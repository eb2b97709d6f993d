// Checks a backward that is not the derivative of the forward (gradient clipping, straight-through ops):
// the input grads from a given output grad must equal `want`, with accum adding and propagate_down=false
// leaving grads untouched.
#pragma once
#include <gtest/gtest.h>

#include <cmath>

#include "../nn_layer/direct_run.hpp"

namespace nn::test {

// want[i] empty: input i receives no gradient (its grad must stay as it was).
inline void check_custom_backward(const std::string& type, const Attrs& attrs, const std::vector<RefArray>& inputs,
                                  const std::vector<double>& g, const std::vector<std::vector<double>>& want,
                                  double tol = 1e-5) {
  SCOPED_TRACE(type);
  const std::vector<bool> all(inputs.size(), true), none(inputs.size(), false);
  for (bool accum : {false, true}) {
    const float prefill = accum ? 0.5f : 7.f;
    auto o = run_direct(type, attrs, inputs, g, all, accum, prefill);
    for (size_t i = 0; i < inputs.size(); ++i)
      for (size_t j = 0; j < o.grad[i].size(); ++j) {
        const double expect = want[i].empty() ? prefill : want[i][j] + (accum ? prefill : 0.0);
        EXPECT_NEAR(o.grad[i][j], expect, tol * (1 + std::fabs(expect)))
            << "input " << i << "[" << j << "] accum=" << accum;
      }
  }
  auto o = run_direct(type, attrs, inputs, g, none, false, 3.f);
  for (size_t i = 0; i < inputs.size(); ++i)
    for (float v : o.grad[i]) ASSERT_EQ(v, 3.f) << "propagate_down=false changed grad of input " << i;
}

}  // namespace nn::test
