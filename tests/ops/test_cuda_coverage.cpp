// The CUDA kernels registered are exactly cuda_kernels.def, and each has a case, checked from the inventory alone
// (so on machines without a GPU too): a float kernel, a test suite named after its op here, whose per-op tester
// compares every registered float backend with cpu:float; a half kernel, or one of an op the per-op tester does
// not compare (ops_not_compared_with_cpu), a case in tests/gpu naming the op.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "nn/core/context.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

namespace {

std::set<std::string> inventory() {
  return {
#define NN_CUDA_KERNEL(Type, backend, type_config) #Type " " #backend ":" #type_config,
#include "nn/cuda/cuda_kernels.def"
#undef NN_CUDA_KERNEL
  };
}

// The kernels registered once the CUDA backend is loaded (it registers them, device or not).
std::set<std::string> registered() {
  const std::string not_loaded = nn::load_gpu_backend();
  EXPECT_EQ(not_loaded, "");
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

// The text of tests/gpu's test sources.
std::string gpu_test_sources() {
  std::string text;
  for (const auto& entry : std::filesystem::directory_iterator(NN_GPU_TEST_DIR)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("test_", 0) != 0 || entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    std::ostringstream s;
    s << in.rdbuf();
    text += s.str();
  }
  return text;
}

TEST(CudaCoverage, EveryCudaKernelHasACase) {
  std::set<std::string> suites;
  auto* ut = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < ut->total_test_suite_count(); ++i) suites.insert(ut->GetTestSuite(i)->name());
  const std::string gpu_tests = gpu_test_sources();
  ASSERT_FALSE(gpu_tests.empty()) << "no test sources in " << NN_GPU_TEST_DIR;
  for (const std::string& k : inventory()) {
    const std::string op = k.substr(0, k.find(' '));
    const bool half = k.find(":half") != std::string::npos;
    if (half || nn::test::ops_not_compared_with_cpu().count(op)) {
      EXPECT_NE(gpu_tests.find("\"" + op + "\""), std::string::npos)
          << k << " has no case: no test in tests/gpu names " << op;
    } else {
      EXPECT_TRUE(suites.count(op)) << k << " has no case: no test suite named " << op;
    }
  }
}

}  // namespace
