// Every op in ops.def has a schema, a CPU kernel and a test suite named after it.
#include <gtest/gtest.h>

#include <set>

#include "nn/ops/op_registry.hpp"

namespace {
const char* kAllOps[] = {
#define NN_OP(Type, snake) #Type,
#include "nn/ops/ops.def"
#undef NN_OP
};

TEST(OpCoverage, EveryOpHasSchemaKernelAndTest) {
  std::set<std::string> suites;
  auto* ut = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < ut->total_test_suite_count(); ++i) suites.insert(ut->GetTestSuite(i)->name());
  auto& reg = nn::OpRegistry::instance();
  for (const char* op : kAllOps) {
    EXPECT_NE(reg.find(op), nullptr) << op << " has no schema";
    auto k = reg.kernels(op);
    EXPECT_NE(std::find(k.begin(), k.end(), "cpu:float"), k.end()) << op << " has no CPU kernel";
    EXPECT_TRUE(suites.count(op)) << op << " has no test suite named " << op;
  }
}
}  // namespace
