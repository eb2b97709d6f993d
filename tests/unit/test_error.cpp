// nn::Error: context chains without repeated prefixes, and allocation failures named like other errors.
#include <gtest/gtest.h>

#include <functional>
#include <new>

#include "nn/core/error.hpp"

namespace nn {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Error, ContextIsAddedOnceEvenWhenTheMessageAlreadyNamesIt) {
  const std::string msg = message_of([] {
    with_context("'x.nnp'",
                 [] { NN_FAIL(ErrorCode::kInvalid) << "'x.nnp': write failed: No space left on device"; });
  });
  EXPECT_EQ(msg, "'x.nnp': write failed: No space left on device");
  const std::string nested = message_of([] {
    with_context("'m.nnp'", [] { with_context("network 'n'", [] { NN_FAIL(ErrorCode::kInvalid) << "bad"; }); });
  });
  EXPECT_EQ(nested, "'m.nnp': network 'n': bad");
}

TEST(Error, AllocationFailureBecomesAnErrorNamingThePlace) {
  ErrorCode code{};
  std::string msg;
  try {
    with_context("'big.h5'", []() -> int { throw std::bad_alloc(); });
  } catch (const Error& e) {
    code = e.code();
    msg = e.what();
  }
  EXPECT_EQ(code, ErrorCode::kInvalid);
  EXPECT_EQ(msg, "'big.h5': out of memory");
}

}  // namespace
}  // namespace nn
