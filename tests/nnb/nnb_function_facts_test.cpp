// Per-function NNB facts: argument codes from the schema, the id table's argcodes, c-runtime and transposed
// inputs.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "formats/nnb/nnb_args.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "formats/nnb/nnb_support.hpp"
#include "formats/nnb/nnb_writer.hpp"
#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"
#include "nnb_test_util.hpp"

namespace nn::formats::nnb::test {

namespace {

TEST(NnbArgumentCodes, FollowNnablasCodeGenerator) {
  EXPECT_EQ(argument_codes("Convolution"), "iiIiIiIiB");
  EXPECT_EQ(argument_codes("Sigmoid"), "");
  EXPECT_EQ(argument_codes("SyncBatchNormalization").substr(0, 1), "C");
  // Repeated floats are "fF", as in api_levels.yaml's RandomErase_ffFfFfFiBBiiBB (level 11).
  EXPECT_EQ(argument_codes("RandomErase"), "ffFfFfFiBBiiBB");
  EXPECT_EQ(function_table(11).at("RandomErase").argcode, argument_codes("RandomErase"));
  EXPECT_EQ(split_argcode("ffFiIB"), (std::vector<std::string>{"f", "fF", "iI", "B"}));
}

// Every entry of the id table is the current definition or an older one with arguments appended since
// (the writer drops the tail): its codes are a prefix of the schema's. Two known exceptions, both as upstream:
// HardSigmoid's newest entry (level 3) has "ff" though the function has no arguments (its export fails), and
// Dropout_fiB (level 34) has a third code that functions.yaml's Dropout (p, seed) does not have.
TEST(NnbArgumentCodes, NewestTableEntriesArePrefixesOfTheSchema) {
  const std::map<std::string, std::string> known = {{"HardSigmoid", "ff"}, {"Dropout", "fiB"}};
  for (const auto& [type, entry] : function_table(newest_api_level())) {
    ASSERT_NE(OpRegistry::instance().find(type), nullptr) << type << " is not in the op inventory";
    const std::string current = argument_codes(type);
    if (auto it = known.find(type); it != known.end()) {
      EXPECT_EQ(entry.argcode, it->second) << type;
      continue;
    }
    EXPECT_EQ(current.compare(0, entry.argcode.size(), entry.argcode), 0)
        << type << ": table " << entry.argcode << ", schema " << current;
  }
}

TEST(NnbArgumentCodes, RepeatedFloatsAreRefusedNamingTheArgument) {
  try {
    build_nnb(one_function_model("RandomErase", {}), NnbExportOptions{});
    FAIL();
  } catch (const nn::Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    const std::string what = e.what();
    EXPECT_NE(what.find("RandomErase.area_ratios: argument type"), std::string::npos) << what;
    EXPECT_EQ(what.find("fFFF"), std::string::npos) << what;
  }
}

TEST(NnbFunctionFacts, CRuntimeFunctionsAndTransposedInputs) {
  EXPECT_TRUE(c_runtime_implements("Convolution"));
  EXPECT_TRUE(c_runtime_implements("Trilu"));
  EXPECT_FALSE(c_runtime_implements("GlobalAveragePooling"));
  EXPECT_FALSE(c_runtime_implements("RandomErase"));
  EXPECT_EQ(transposed_inputs("Affine"), (std::vector<size_t>{1}));
  EXPECT_EQ(transposed_inputs("BinaryConnectAffine"), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(transposed_inputs("BinaryWeightAffine"), (std::vector<size_t>{1, 2}));
  EXPECT_TRUE(transposed_inputs("Convolution").empty());
  EXPECT_TRUE(transposed_inputs("INQAffine").empty());
}

// Coverage: every id of every level and every c-runtime function names a function of the op inventory.
TEST(NnbFunctionFacts, EveryEntryNamesAnInventoryFunction) {
  for (int level = 1; level <= newest_api_level(); ++level)
    for (const auto& [type, entry] : function_table(level)) {
      EXPECT_NE(OpRegistry::instance().find(type), nullptr) << "level " << level << ": " << type;
      EXPECT_EQ(function_by_id(entry.id)->type, type) << "id " << entry.id << " is used twice";
    }
  for (const auto& type : nnb_supported_functions(-1)) {
    EXPECT_TRUE(c_runtime_implements(type)) << type;
    EXPECT_NE(OpRegistry::instance().find(type), nullptr) << type;
  }
}

}  // namespace

}  // namespace nn::formats::nnb::test
