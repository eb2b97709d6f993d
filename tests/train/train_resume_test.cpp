// Checkpoints and resume: a run killed with SIGKILL mid-epoch, or stopped by SIGINT, and resumed with -r
// ends with exactly the parameters and report of an uninterrupted run (shuffled data, Adam).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "train_cli_util.hpp"

namespace t = nn::train_test;
namespace fs = std::filesystem;

namespace {

const std::string kGolden = "golden/training/digits_mlp_sgd";

// The golden config with shuffled datasets and Adam, written into dir; returns its path.
std::string adam_config(const std::string& dir) {
  std::string text = t::read_text(t::testdata(kGolden + "/net.nntxt"));
  text = std::regex_replace(text, std::regex("shuffle: false"), "shuffle: true");
  text = std::regex_replace(text, std::regex("type: \"Sgd\""), "type: \"Adam\"");
  text = std::regex_replace(text, std::regex("sgd_param \\{ lr: 0.5 \\}"),
                            "adam_param { alpha: 0.01 beta1: 0.9 beta2: 0.999 eps: 1e-08 }");
  const std::string path = dir + "/net_adam.nntxt";
  t::write_text(path, text);
  return path;
}

struct Finished {
  std::map<std::string, std::vector<float>> parameters;
  std::string report;
};

Finished finished(const std::string& out) {
  return {t::read_parameters(out + "/results_current_3.nnp"), t::read_text(out + "/monitoring_report.yml")};
}

Finished uninterrupted(const std::string& config) {
  const std::string out = t::work_dir("resume_reference");
  auto r = t::run_nncli(t::testdata(kGolden),
                        "train -c '" + config + "' -p initial_parameters.h5 -o '" + out + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  return finished(out);
}

}  // namespace

TEST(TrainResume, SigkillMidEpochThenResumeMatchesUninterrupted) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string config = adam_config(t::work_dir("resume_config_kill"));
  const Finished reference = uninterrupted(config);

  const std::string out = t::work_dir("resume_killed");
  const std::string args = "train -c '" + config + "' -p initial_parameters.h5 -o '" + out + "'";
  auto killed = t::run_nncli(t::testdata(kGolden), args + " --kill-at-iteration 15");
  ASSERT_EQ(killed.status, 128 + 9) << killed.output;
  ASSERT_TRUE(fs::exists(out + "/results_current_1.nnp"));
  ASSERT_TRUE(fs::exists(out + "/train_checkpoint.nnp"));

  auto resumed = t::run_nncli(t::testdata(kGolden), args + " -r");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("Resume from epoch 2 (iteration 10)"), std::string::npos) << resumed.output;
  const Finished got = finished(out);
  EXPECT_EQ(got.parameters, reference.parameters);
  EXPECT_EQ(got.report, reference.report);
}

TEST(TrainResume, SigintSavesACheckpointMidEpochAndResumes) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string config = adam_config(t::work_dir("resume_config_int"));
  const Finished reference = uninterrupted(config);

  const std::string out = t::work_dir("resume_interrupted");
  const std::string args = "train -c '" + config + "' -p initial_parameters.h5 -o '" + out + "'";
  auto stopped = t::run_nncli(t::testdata(kGolden), args + " --interrupt-at-iteration 17");
  ASSERT_EQ(stopped.status, 130) << stopped.output;
  EXPECT_NE(stopped.output.find("interrupted at iteration 17"), std::string::npos) << stopped.output;

  auto resumed = t::run_nncli(t::testdata(kGolden), args + " -r");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("(iteration 17)"), std::string::npos) << resumed.output;
  const Finished got = finished(out);
  EXPECT_EQ(got.parameters, reference.parameters);
  EXPECT_EQ(got.report, reference.report);
}

TEST(TrainResume, ResumeWithoutCheckpointStartsAtEpochOne) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string out = t::work_dir("resume_fresh");
  auto r = t::run_nncli(t::testdata(kGolden),
                        "train -c net_1iter.nntxt -p initial_parameters.h5 -r -o '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Resume from epoch 1"), std::string::npos) << r.output;
}
