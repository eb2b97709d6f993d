// Argument defaults live in the schema: a constructed Function holds every defaulted argument, and reading an
// argument that is not there is an internal error.
#include <gtest/gtest.h>

#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn {
namespace {

TEST(SchemaDefaults, AFunctionHoldsEveryDefaultedArgument) {
  const FunctionPtr f = OpRegistry::instance().create("LeakyReLU", Attrs{}, cpu_context());
  EXPECT_DOUBLE_EQ(f->attrs().get_float("alpha"), 0.1);
  EXPECT_FALSE(f->attrs().get_bool("inplace"));
  const FunctionPtr given = OpRegistry::instance().create("LeakyReLU", Attrs{{"alpha", 0.25}}, cpu_context());
  EXPECT_DOUBLE_EQ(given->attrs().get_float("alpha"), 0.25);
}

TEST(SchemaDefaults, ArgumentsWhoseDefaultDependsOnTheInputsStayAbsent) {
  const OpSchema& schema = OpRegistry::instance().get("Softmax");
  ASSERT_EQ(schema.find_arg("axis")->default_value, std::nullopt);  // "last axis"
  const FunctionPtr f = OpRegistry::instance().create("Softmax", Attrs{}, cpu_context());
  EXPECT_FALSE(f->attrs().has("axis"));
}

TEST(SchemaDefaults, AMissingArgumentIsAnInternalError) {
  const Attrs attrs{{"alpha", 0.5}};
  EXPECT_DOUBLE_EQ(attrs.get_float("alpha"), 0.5);
  try {
    attrs.get_int("axis");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
    EXPECT_NE(std::string(e.what()).find("argument 'axis' is missing"), std::string::npos) << e.what();
  }
  EXPECT_EQ(attrs.get_int("axis", 3), 3);  // IR attributes may be absent: readers give their own fallback
}

}  // namespace
}  // namespace nn
