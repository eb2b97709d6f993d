// nncli on a GPU context with the digits golden files (label gpu; skipped without a CUDA device):
// `train -C cudnn` must reproduce nbla's trained parameters, `-C cudnn:half` (dynamic loss scaling) must
// come close, both naming the context they ran on; `infer -C` must give nbla's softmax outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "nn/core/context.hpp"
#include "train_cli_util.hpp"

namespace t = nn::train_test;

namespace {

const std::string kGolden = "golden/training/digits_mlp_sgd";

void train_on(const std::string& context, const std::string& tag, double tolerance) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  if (const std::string why = nn::gpu_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
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

namespace {

void infer_on(const std::string& context, const std::string& tag, double absolute, double relative) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  if (const std::string why = nn::gpu_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const std::string prefix = t::work_dir(tag) + "/out";
  auto r = t::run_nncli(t::testdata(kGolden), "-q infer -C " + context +
                                                  " -c net.nntxt -p result_nbla/parameters.h5 -b 4 -o '" + prefix +
                                                  "' infer_in_valid4_0.bin");
  ASSERT_EQ(r.status, 0) << r.output;
  auto floats = [](const std::string& bytes) {
    std::vector<float> v(bytes.size() / 4);
    std::memcpy(v.data(), bytes.data(), v.size() * 4);
    return v;
  };
  const std::vector<float> want = floats(t::read_text(t::testdata(kGolden) + "/infer_trained_out_0.bin"));
  ASSERT_EQ(want.size(), 40u);
  for (int s = 0; s < 4; ++s) {
    const std::vector<float> got = floats(t::read_text(prefix + "_" + std::to_string(s) + ".bin"));
    ASSERT_EQ(got.size(), 10u) << "sample " << s;
    for (size_t k = 0; k < 10; ++k) {
      const float w = want[size_t(s) * 10 + k];
      EXPECT_NEAR(got[k], w, absolute + relative * std::fabs(w)) << "sample " << s << " class " << k;
    }
  }
}

}  // namespace

TEST(InferGpu, CudnnFloatMatchesNbla) { infer_on("cudnn", "infer_float", 1e-6, 1e-4); }

TEST(InferGpu, CudnnHalfComesClose) { infer_on("cudnn:half", "infer_half", 2e-3, 3e-2); }  // fp16 softmax
