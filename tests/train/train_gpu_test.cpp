// `nncli train -C cudnn` and `-C cudnn:half` on the digits golden config (label gpu; skipped without a CUDA
// device): the float run must reproduce nbla's trained parameters, the half run (dynamic loss scaling) must
// come close, and both must report the context they ran on.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/cuda/cuda.hpp"
#include "train_cli_util.hpp"

namespace t = nn::train_test;

namespace {

const std::string kGolden = "golden/training/digits_mlp_sgd";

void train_on(const std::string& context, const std::string& tag, double tolerance) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  if (nn::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (" << nn::cuda::device_problem() << ")";
  const std::string out = t::work_dir(tag);
  auto r = t::run_nncli(t::testdata(kGolden),
                        "train -C " + context + " -c net.nnp -p initial_parameters.h5 -o '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Train with contexts ['cudnn']"), std::string::npos) << r.output;
  auto got = t::read_parameters(out + "/results_current_3.nnp");
  auto want = t::read_golden_parameters(t::testdata(kGolden) + "/result_nbla", "trained_params_manifest.tsv");
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [name, values] : want) {
    ASSERT_EQ(got[name].size(), values.size()) << name;
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_NEAR(got[name][i], values[i], tolerance * (1.0 + std::fabs(values[i]))) << name << "[" << i << "]";
  }
}

}  // namespace

TEST(TrainGpu, CudnnFloatMatchesNbla) { train_on("cudnn", "gpu_float", 1e-4); }

TEST(TrainGpu, CudnnHalfComesClose) { train_on("cudnn:half", "gpu_half", 5e-2); }
