// The CUDA kernels registered are exactly cuda_kernels.def, and each has a case: a test suite named after its op
// here, whose per-op tester compares every registered backend with cpu:float.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "nn/ops/op_registry.hpp"

namespace {

std::set<std::string> inventory() {
  return {
#define NN_CUDA_KERNEL(Type, backend, type_config) #Type " " #backend ":" #type_config,
#include "nn/cuda/cuda_kernels.def"
#undef NN_CUDA_KERNEL
  };
}

std::set<std::string> registered() {
  std::set<std::string> kernels;
  auto& reg = nn::OpRegistry::instance();
  for (const std::string& op : reg.names())
    for (const std::string& k : reg.kernels(op))
      if (k.rfind("cpu:", 0) != 0) kernels.insert(op + " " + k);
  return kernels;
}

TEST(CudaCoverage, RegistrationsMatchTheInventory) {
#ifndef NN_WITH_CUDA
  GTEST_SKIP() << "built without CUDA: no CUDA kernel is registered";
#endif
  const std::set<std::string> listed = inventory(), actual = registered();
  for (const std::string& k : actual)
    EXPECT_TRUE(listed.count(k)) << "registered but not in nn/cuda/cuda_kernels.def: " << k;
  for (const std::string& k : listed)
    EXPECT_TRUE(actual.count(k)) << "in nn/cuda/cuda_kernels.def but not registered: " << k;
}

TEST(CudaCoverage, EveryCudaKernelHasACase) {
  std::set<std::string> suites;
  auto* ut = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < ut->total_test_suite_count(); ++i) suites.insert(ut->GetTestSuite(i)->name());
  for (const std::string& k : inventory()) {
    const std::string op = k.substr(0, k.find(' '));
    EXPECT_TRUE(suites.count(op)) << k << " has no case: no test suite named " << op;
  }
}

}  // namespace
