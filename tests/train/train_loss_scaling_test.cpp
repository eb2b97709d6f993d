// `nncli train --loss-scale`: dynamic loss scaling on the CPU. A power-of-two scale changes no bit of the
// trained parameters; an overflowing scale skips updates until it has come down, and -r resumes the scale.
#include <gtest/gtest.h>

#include <filesystem>

#include "train_cli_util.hpp"

namespace t = nn::train_test;

namespace {

const std::string kGolden = "golden/training/digits_mlp_sgd";

std::map<std::string, std::vector<float>> train(const std::string& tag, const std::string& extra,
                                                std::string* log = nullptr) {
  const std::string out = t::work_dir(tag);
  auto r =
      t::run_nncli(t::testdata(kGolden), "train -c net.nnp -p initial_parameters.h5 -o '" + out + "' " + extra);
  EXPECT_EQ(r.status, 0) << r.output;
  if (log) *log = r.output;
  return t::read_parameters(out + "/results_current_3.nnp");
}

}  // namespace

TEST(TrainLossScaling, PowerOfTwoScaleGivesTheSameParameters) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  std::string log;
  auto plain = train("loss_scale_off", "");
  auto scaled = train("loss_scale_1024", "--loss-scale 1024", &log);
  EXPECT_NE(log.find("Dynamic loss scaling: initial scale 1024, factor 2, interval 2000"), std::string::npos)
      << log;
  ASSERT_EQ(plain.size(), scaled.size());
  for (const auto& [name, values] : plain) {
    ASSERT_EQ(scaled[name].size(), values.size()) << name;
    for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(scaled[name][i], values[i]) << name << "[" << i << "]";
  }
}

TEST(TrainLossScaling, OverflowingScaleSkipsUpdatesAndComesDown) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  std::string log;
  auto params = train("loss_scale_overflow", "--loss-scale 3e38 --loss-scale-factor 1e8", &log);
  EXPECT_NE(log.find("Training Completed."), std::string::npos) << log;
  EXPECT_NE(log.find("Dynamic loss scaling skipped "), std::string::npos) << log;
  EXPECT_EQ(params.size(), 4u);
}

TEST(TrainLossScaling, BadScalingOptionsFailCleanly) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string out = t::work_dir("loss_scale_bad");
  auto r =
      t::run_nncli(t::testdata(kGolden), "train -c net.nnp -o '" + out + "' --loss-scale 8 --loss-scale-factor 1");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("loss scaling factor must be greater than 1, got 1"), std::string::npos) << r.output;
  // A negative scale is refused by the option itself (it must not fall back to the default silently).
  r = t::run_nncli(t::testdata(kGolden), "train -c net.nnp -o '" + out + "' --loss-scale -5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--loss-scale: must not be negative, got -5"), std::string::npos) << r.output;
  r = t::run_nncli(t::testdata(kGolden), "train -c net.nnp -o '" + out + "' --loss-scale abc");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--loss-scale"), std::string::npos) << r.output;
}

TEST(TrainLossScaling, ResumeContinuesWithTheSavedScale) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  // The scale overflows, comes down, grows back every 4 updates and overflows again: any scale or counter
  // not restored by -r changes which updates are skipped, hence the parameters.
  const std::string scaling = "--loss-scale 3e38 --loss-scale-factor 1e8 --loss-scale-interval 3";
  auto reference = train("loss_scale_resume_reference", scaling);
  const std::string out = t::work_dir("loss_scale_resume");
  const std::string args = "train -c net.nnp -p initial_parameters.h5 -o '" + out + "' " + scaling;
  auto killed = t::run_nncli(t::testdata(kGolden), args + " --kill-at-iteration 15");
  ASSERT_EQ(killed.status, 128 + 9) << killed.output;
  auto resumed = t::run_nncli(t::testdata(kGolden), args + " -r");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  auto params = t::read_parameters(out + "/results_current_3.nnp");
  ASSERT_EQ(params.size(), reference.size());
  for (const auto& [name, values] : reference)
    for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(params[name][i], values[i]) << name << "[" << i << "]";
}
