// `nncli train` odds and ends: --help, 0-epoch training (just save), invalid OOC size strings.
#include <gtest/gtest.h>

#include <filesystem>

#include "train_cli_util.hpp"

namespace t = nn::train_test;

TEST(TrainCli, HelpListsTheUpstreamOptions) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  auto r = t::run_nncli(".", "train --help");
  EXPECT_EQ(r.status, 0);
  for (const char* option : {"-r,--resume", "-c,--config", "-p,--param", "-o,--outdir", "-O,--enable-ooc",
                             "-m,--ooc-gpu-memory-size", "-C,--context", "-w,--ooc-window-length", "--dataset"})
    EXPECT_NE(r.output.find(option), std::string::npos) << option;
}

TEST(TrainCli, ZeroEpochsJustSavesTheParameters) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string dir = t::work_dir("zero_epoch");
  std::string text = t::read_text(t::testdata("golden/training/digits_mlp_sgd/net.nntxt"));
  text.replace(text.find("max_epoch: 3"), 12, "max_epoch: 0");
  t::write_text(dir + "/net.nntxt", text);
  std::filesystem::create_directories(dir + "/out");
  auto r = t::run_nncli(dir, "train -c net.nntxt -o out");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("0 epoch learning. (Just save parameter.)"), std::string::npos) << r.output;
  auto params = t::read_parameters(dir + "/out/results.nnp");
  EXPECT_EQ(params.size(), 4u);
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/monitoring_report.yml"));
}

TEST(TrainCli, InvalidOocSizeStringFails) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string dir = t::work_dir("ooc_size");
  t::write_text(dir + "/none.nntxt", "");  // the size string is checked before the config is read
  auto r = t::run_nncli(dir, "train -c none.nntxt -o . -m 12X");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("Fatal error. invalid ooc_gpu_memory_size [12X]."), std::string::npos) << r.output;
}
