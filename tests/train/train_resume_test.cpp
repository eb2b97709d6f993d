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
  auto r =
      t::run_nncli(t::testdata(kGolden), "train -c '" + config + "' -p initial_parameters.h5 -o '" + out + "'");
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
  auto r =
      t::run_nncli(t::testdata(kGolden), "train -c net_1iter.nntxt -p initial_parameters.h5 -r -o '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Resume from epoch 1"), std::string::npos) << r.output;
}

// A checkpoint older than the results_current_N.nnp beside it (an older nncli killed between its two
// writes) resumes exactly from the checkpoint, and the report keeps each epoch once.
TEST(TrainResume, CheckpointOlderThanResultsResumesExactlyFromTheCheckpoint) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string config = adam_config(t::work_dir("resume_config_stale"));
  const Finished reference = uninterrupted(config);

  const std::string out = t::work_dir("resume_stale");
  const std::string args = "train -c '" + config + "' -p initial_parameters.h5 -o '" + out + "'";
  ASSERT_EQ(t::run_nncli(t::testdata(kGolden), args + " --kill-at-iteration 15").status, 128 + 9);
  const std::string epoch1 = t::read_text(out + "/train_checkpoint.nnp");
  ASSERT_EQ(t::run_nncli(t::testdata(kGolden), args + " -r --kill-at-iteration 25").status, 128 + 9);
  ASSERT_TRUE(fs::exists(out + "/results_current_2.nnp"));
  t::write_text(out + "/train_checkpoint.nnp", epoch1);  // the checkpoint of epoch 1 beside results of epoch 2

  auto resumed = t::run_nncli(t::testdata(kGolden), args + " -r");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("'results_current_2.nnp' is newer than the checkpoint; resuming exactly"),
            std::string::npos)
      << resumed.output;
  EXPECT_NE(resumed.output.find("Resume from epoch 2 (iteration 10)"), std::string::npos) << resumed.output;
  const Finished got = finished(out);
  EXPECT_EQ(got.parameters, reference.parameters);
  EXPECT_EQ(got.report, reference.report);  // epochs 0, 1, 2 once each
}

TEST(TrainResume, SigtermStopsLikeSigintAndResumes) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string config = adam_config(t::work_dir("resume_config_term"));
  const Finished reference = uninterrupted(config);

  const std::string out = t::work_dir("resume_terminated");
  const std::string args = "train -c '" + config + "' -p initial_parameters.h5 -o '" + out + "'";
  auto stopped = t::run_nncli(t::testdata(kGolden), args + " --terminate-at-iteration 13");
  ASSERT_EQ(stopped.status, 128 + 15) << stopped.output;
  EXPECT_NE(stopped.output.find("interrupted at iteration 13"), std::string::npos) << stopped.output;

  auto resumed = t::run_nncli(t::testdata(kGolden), args + " -r");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("(iteration 13)"), std::string::npos) << resumed.output;
  const Finished got = finished(out);
  EXPECT_EQ(got.parameters, reference.parameters);
  EXPECT_EQ(got.report, reference.report);
}
