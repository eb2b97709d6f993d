// Helpers for the format tests: testdata paths, scratch directories, model comparison.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "nn/core/error.hpp"
#include "nn/ir/model.hpp"

namespace nn::formats::test {

// shared/testdata (NN_TESTDATA_DIR from the environment, else the compiled-in path).
inline std::filesystem::path testdata_dir() {
  if (const char* env = std::getenv("NN_TESTDATA_DIR"); env && *env) return env;
  return NN_TESTDATA_DIR;
}
inline std::string testdata(const std::string& relative) { return (testdata_dir() / relative).string(); }

#define NN_REQUIRE_TESTDATA(path)                                                     \
  do {                                                                                \
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "testdata missing: " << path; \
  } while (0)

// A fresh directory under the system temp dir, removed at the end of the test.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// Every file below root whose lower-cased extension is one of exts, sorted.
std::vector<std::string> find_files(const std::filesystem::path& root, const std::vector<std::string>& exts);

// Asserts the two models are equal in every field, including function Attrs, parameters and states.
void expect_models_equal(const ir::Model& a, const ir::Model& b);

// Runs f and returns the nn::Error message it throws ("" and a test failure when it does not throw).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const nn::Error& e) {
    EXPECT_EQ(e.code(), nn::ErrorCode::kInvalid) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "expected an nn::Error";
  return "";
}

std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, const std::string& data);

}  // namespace nn::formats::test
