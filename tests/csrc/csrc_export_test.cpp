// CSRC export: Python float text, and real models exported, compiled with gcc -std=c99 -Wall -Werror against
// runtime_decls/, with a small C program reading back every parameter array bit for bit.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "formats/csrc/csrc_plan.hpp"
#include "formats/csrc/csrc_writer.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::csrc::test {

namespace fs = std::filesystem;

namespace {

fs::path testdata() {
  if (const char* env = std::getenv("NN_TESTDATA_DIR"); env && *env) return env;
  return NN_TESTDATA_DIR;
}

bool have_gcc() { return std::system("gcc --version >/dev/null 2>&1") == 0; }

std::string run_output(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  EXPECT_EQ(pclose(pipe), 0) << command;
  return out;
}

// Expected array of parameter `name`: Affine weights output-major (docs/nnb_format.md#data-blocks), others as
// stored.
std::vector<float> expected_values(const ir::Model& model, const ir::Network& net, const std::string& name) {
  std::vector<float> x = model.find_parameter(name)->data;
  for (const auto& f : net.functions) {
    const bool affine = f.type == "Affine" || f.type == "BinaryConnectAffine" || f.type == "BinaryWeightAffine";
    if (!affine || f.inputs.size() < 2 || f.inputs[1] != name) continue;
    const int64_t rows = net.find_variable(name)->shape[0], cols = int64_t(x.size()) / rows;
    std::vector<float> t(x.size());
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) t[size_t(c * rows + r)] = x[size_t(r * cols + c)];
    return t;
  }
  return x;
}

}  // namespace

TEST(CsrcText, PythonFloat) {
  EXPECT_EQ(python_float(double(0.26461100578308105)), "0.26461100578308105");
  EXPECT_EQ(python_float(1e-05), "1e-05");
  EXPECT_EQ(python_float(0.0001), "0.0001");
  EXPECT_EQ(python_float(3.0), "3.0");
  EXPECT_EQ(python_float(-0.5), "-0.5");
  EXPECT_EQ(python_float(0.0), "0.0");
  EXPECT_EQ(python_float(1e16), "1e+16");
  EXPECT_EQ(python_float(123456789012345.0), "123456789012345.0");
  EXPECT_EQ(python_float(double(0.1f)), "0.10000000149011612");
  EXPECT_EQ(python_float(-1.5e-7), "-1.5e-07");
  EXPECT_EQ(c_identifier("a b-c"), "a_b_c");
}

TEST(CsrcExport, NeedsAnExecutor) {
  try {
    generate_csrc(ir::Model{}, 1);
    FAIL() << "no error";
  } catch (const nn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the model has no executor"), std::string::npos) << e.what();
  }
}

class CsrcRealModel : public ::testing::TestWithParam<const char*> {};

TEST_P(CsrcRealModel, CompilesAndHoldsExactWeights) {
  const fs::path source = testdata() / GetParam();
  if (!fs::exists(source)) GTEST_SKIP() << source << " not present";
  if (!have_gcc()) GTEST_SKIP() << "gcc not found";
  const ir::Model model = expand_model(load_model({source.string()}));
  const fs::path dir = fs::temp_directory_path() /
                       ("nncli_csrc_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                        fs::path(GetParam()).parent_path().filename().string());
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_csrc(model, dir.string(), 1);
  const CsrcPlan plan = make_plan(model, 1);
  const std::string n = plan.name;
  for (const auto& f : {n + "_inference.c", n + "_example.c", n + "_parameters.c"})
    EXPECT_EQ(
        std::system(("cd '" + dir.string() + "' && gcc -std=c99 -Wall -Werror -I'" NN_CSRC_RUNTIME_DECLS "' -c '" +
                     f + "' -o /dev/null")
                        .c_str()),
        0)
        << f;
  // A C program prints every value of every parameter array as a hex float (exact).
  {
    std::ofstream c(dir / "dump_params.c");
    const std::string P = upper(plan.prefix);
    c << "#include <stdio.h>\n#include \"" << n << "_inference.h\"\n"
      << "extern void* " << plan.symbol << "_parameters[];\nstatic const int sizes[] = {\n";
    for (size_t k = 0; k < plan.parameters.size(); ++k) c << "  " << P << "_PARAM" << k << "_SIZE,\n";
    c << "};\nint main(void) {\n  for (int p = 0; p < " << P << "_NUM_OF_PARAM_BUFFERS; ++p)\n"
      << "    for (int i = 0; i < sizes[p]; ++i) printf(\"%a\\n\", (double)((float*)" << plan.symbol
      << "_parameters[p])[i]);\n  return 0;\n}\n";
  }
  ASSERT_EQ(std::system(("cd '" + dir.string() + "' && gcc -std=c99 -Wall -Werror dump_params.c " + n +
                         "_parameters.c -o dump_params")
                            .c_str()),
            0);
  std::istringstream printed(run_output("'" + (dir / "dump_params").string() + "'"));
  size_t checked = 0;
  for (size_t v : plan.parameters) {
    const std::string& name = plan.network->variables[v].name;
    for (float expected : expected_values(model, *plan.network, name)) {
      std::string line;
      ASSERT_TRUE(std::getline(printed, line)) << "missing values of " << name;
      char want[64];
      std::snprintf(want, sizeof want, "%a", double(expected));
      ASSERT_EQ(line, want) << name;
      ++checked;
    }
  }
  std::string extra;
  EXPECT_FALSE(std::getline(printed, extra)) << "more values than parameters hold";
  EXPECT_GT(checked, 0u);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Testdata, CsrcRealModel,
    ::testing::Values(
        "nnc_results/nnc_cli_demo_mnist_lenet/result2.nnp", "nnc_results/qiiajia_lenet_param_h5/results.nnp",
        "golden/nnabla/nnc_sample_projects/02_binary_cnn__20180720_181750_nntxt/upstream_generated.nnp",
        "golden/nnabla/nnc_sample_projects/11_deconvolution__20180720_182001_nntxt/upstream_generated.nnp",
        "golden/nnabla/nnc_sample_projects/10_deep_mlp__20180720_181928_nntxt/upstream_generated.nnp"));

}  // namespace nn::formats::csrc::test
