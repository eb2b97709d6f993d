// Every op in ops.def has a schema, a CPU kernel and a test suite named after it, and every function of the
// NNP function catalog (spec_catalog.def; docs/nnp_format.md#function-parameter-messages) is in the registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"

namespace {
const char* kAllOps[] = {
#define NN_OP(Type, snake) #Type,
#include "nn/ops/ops.def"
#undef NN_OP
};

struct CatalogEntry {
  const char* type;
  int field_number;
};
const CatalogEntry kCatalog[] = {
#define NN_CATALOG_FUNCTION(Type, number) {#Type, number},
#include "spec_catalog.def"
#undef NN_CATALOG_FUNCTION
};

// Catalog functions without a kernel yet. Shrinks to empty; a listed function that gets registered fails
// the test below so the list stays honest.
const std::set<std::string> kNotYetImplemented = {};

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

TEST(OpCoverage, SnakeNamesComeFromOpsDef) {
  auto& reg = nn::OpRegistry::instance();
#define NN_OP(Type, snake)                      \
  ASSERT_NE(reg.find(#Type), nullptr) << #Type; \
  EXPECT_EQ(reg.find(#Type)->snake_name, #snake);
#include "nn/ops/ops.def"
#undef NN_OP
  EXPECT_EQ(reg.get("BatchNormalization").snake_name, "batch_normalization");
  EXPECT_EQ(reg.get("ReLU6").snake_name, "relu6");
}

// Kernels read their arguments from the schema-completed attrs: constructing any op from its schema's defaults
// (and placeholder values for arguments without one) never reads a missing argument (an internal error).
TEST(OpCoverage, EveryOpConstructsFromItsSchemaDefaults) {
  auto& reg = nn::OpRegistry::instance();
  for (const char* op : kAllOps) {
    nn::Attrs attrs;
    for (const auto& a : reg.get(op).args) {
      if (a.default_value || a.type == nn::AttrType::kCommunicator) continue;
      if (a.type == nn::AttrType::kInt) attrs.set(a.name, int64_t(1));
      if (a.type == nn::AttrType::kFloat || a.type == nn::AttrType::kDouble) attrs.set(a.name, 1.0);
      if (a.type == nn::AttrType::kBool) attrs.set(a.name, false);
      if (a.type == nn::AttrType::kString) attrs.set(a.name, std::string());
      if (a.type == nn::AttrType::kShape || a.type == nn::AttrType::kInts)
        attrs.set(a.name, std::vector<int64_t>{1});
      if (a.type == nn::AttrType::kFloats) attrs.set(a.name, std::vector<double>{1.0});
    }
    try {
      reg.create(op, attrs, nn::cpu_context());
    } catch (const nn::Error& e) {
      EXPECT_NE(e.code(), nn::ErrorCode::kInternal) << op << ": " << e.what();
    }
  }
}

TEST(OpCoverage, CatalogIsUpstreamsNumbering) {
  ASSERT_EQ(std::size(kCatalog), 228u) << "the spec's catalog has 228 functions";
  for (size_t k = 0; k < std::size(kCatalog); ++k)
    EXPECT_EQ(kCatalog[k].field_number, int(1001 + k)) << kCatalog[k].type << " is out of catalog order";
}

TEST(OpCoverage, EveryCatalogFunctionIsRegistered) {
  auto& reg = nn::OpRegistry::instance();
  const std::set<std::string> in_ops_def(std::begin(kAllOps), std::end(kAllOps));
  for (const auto& e : kCatalog) {
    if (kNotYetImplemented.count(e.type)) {
      EXPECT_EQ(reg.find(e.type), nullptr) << e.type << " is registered now: remove it from kNotYetImplemented";
      continue;
    }
    EXPECT_TRUE(in_ops_def.count(e.type))
        << "catalog function " << e.type << " (" << e.field_number << ") is missing from ops.def";
    EXPECT_NE(reg.find(e.type), nullptr) << "catalog function " << e.type << " has no schema";
  }
}

// The reference table spec_catalog.def was generated from (the project's nnp-format.md, kept outside this
// repository), when its path is known (compile definition NN_SPEC_FILE or the environment variable of that
// name): its function table must list exactly the functions of spec_catalog.def, in the same order.
TEST(OpCoverage, SpecTableMatchesCatalogFile) {
  std::string path;
  if (const char* env = std::getenv("NN_SPEC_FILE")) path = env;
#ifdef NN_SPEC_FILE
  if (path.empty()) path = NN_SPEC_FILE;
#endif
  if (path.empty()) GTEST_SKIP() << "set NN_SPEC_FILE to the spec's nnp-format.md to compare";
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "cannot read " << path;
  const std::regex row(R"(^\| \(?(1[0-9]{3})\)? \| ([A-Za-z0-9]+) \|)");
  std::vector<std::pair<int, std::string>> table;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) table.emplace_back(std::stoi(m[1]), m[2]);
  }
  ASSERT_EQ(table.size(), std::size(kCatalog)) << "function rows in " << path;
  for (size_t k = 0; k < table.size(); ++k) {
    EXPECT_EQ(table[k].second, kCatalog[k].type) << "row " << k << " of " << path;
    EXPECT_EQ(table[k].first, kCatalog[k].field_number) << "row " << k << " of " << path;
  }
}
}  // namespace
