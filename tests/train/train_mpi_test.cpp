// `mpirun -n 2 nncli -m train` (docs/command_line.md#train-mpi) on golden/training/digits_mlp_sgd: two
// processes with half the batch each reach the parameters of one process over the same global batches; a killed
// process ends the job in bounded time; -r resumes under MPI from rank 0's checkpoint. Skipped without mpirun
// or MPI.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "train_cli_util.hpp"

namespace t = nn::train_test;
namespace fs = std::filesystem;

namespace {

const std::string kGolden = "golden/training/digits_mlp_sgd";

bool have_mpirun() { return std::system("command -v mpirun > /dev/null 2>&1") == 0; }

#define SKIP_WITHOUT_MPI()                                                     \
  do {                                                                         \
    if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree"; \
    if (!NNCLI_HAS_MPI) GTEST_SKIP() << "nncli is built without MPI";          \
    if (!have_mpirun()) GTEST_SKIP() << "mpirun is not installed";             \
  } while (0)

struct MpiRun {
  int status = -1;
  std::string output;
  double seconds = 0.0;
};

// "mpirun -n <n> nncli -m <args>" in cwd (bounded by `timeout`), stdout and stderr together.
MpiRun run_mpi(const std::string& cwd, int n, const std::string& args, int limit_s = 300,
               const std::string& env = "") {
  const std::string log = cwd + "/mpirun.log";
  std::string cmd = "cd '" + cwd + "' && " + env + " OMPI_MCA_btl_vader_single_copy_mechanism=none timeout " +
                    std::to_string(limit_s) + " mpirun -n " + std::to_string(n) + " --oversubscribe ";
  if (::geteuid() == 0) cmd += "--allow-run-as-root ";
  cmd += "'" + t::nncli() + "' -m " + args + " > '" + log + "' 2>&1";
  const auto start = std::chrono::steady_clock::now();
  const int raw = std::system(cmd.c_str());
  MpiRun r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.output = t::read_text(log);
  return r;
}

// The golden config with absolute dataset paths, the training batch size, iterations per epoch and
// the training CSV replaced.
std::string config_text(int64_t batch, int64_t iter_per_epoch, const std::string& train_csv) {
  std::string text = t::read_text(t::testdata(kGolden + "/net_csv.nntxt"));
  text = std::regex_replace(text, std::regex("iter_per_epoch: 10"),
                            "iter_per_epoch: " + std::to_string(iter_per_epoch));
  text = std::regex_replace(text, std::regex("uri: \"data/train.csv\""), "uri: \"" + train_csv + "\"");
  text = std::regex_replace(text, std::regex("uri: \"data/valid.csv\""),
                            "uri: \"" + t::testdata(kGolden + "/data/valid.csv") + "\"");
  // The training dataset is the first dataset block; its batch_size follows its uri.
  const size_t at = text.find("uri: \"" + train_csv + "\"");
  const size_t b = text.find("batch_size: 20", at);
  text.replace(b, 14, "batch_size: " + std::to_string(batch));
  return text;
}

// The training CSV reordered so that one process's batch k of 2*half rows holds exactly the rows that
// ranks 0 and 1 read as their batch k of `half` rows each (rank r reads the contiguous slice r of N/2 rows).
std::string interleaved_csv(const std::string& dir, int64_t half) {
  const std::string data = t::testdata(kGolden + "/data");
  std::istringstream in(t::read_text(data + "/train.csv"));
  std::string header, line;
  std::getline(in, header);
  std::vector<std::string> rows;
  while (std::getline(in, line))
    if (!line.empty()) rows.push_back(data + "/" + line.substr(2));  // "./train/x.csv,y" made absolute
  const size_t slice = rows.size() / 2;
  std::string out = header + "\n";
  for (size_t k = 0; k * half < slice; ++k)
    for (size_t r = 0; r < 2; ++r)
      for (size_t i = 0; i < size_t(half); ++i) out += rows[r * slice + k * size_t(half) + i] + "\n";
  const std::string path = dir + "/train_interleaved.csv";
  t::write_text(path, out);
  return path;
}

double max_parameter_difference(const std::string& a_path, const std::string& b_path) {
  auto a = t::read_parameters(a_path), b = t::read_parameters(b_path);
  double diff = 0.0;
  for (const auto& [name, values] : a)
    for (size_t i = 0; i < values.size() && i < b[name].size(); ++i)
      diff = std::max(diff, double(std::fabs(values[i] - b[name][i])));
  return diff;
}

void expect_same_parameters(const std::string& got_path, const std::string& want_path, double tolerance) {
  auto got = t::read_parameters(got_path), want = t::read_parameters(want_path);
  ASSERT_EQ(got.size(), 4u);
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [name, values] : want) {
    ASSERT_EQ(got[name].size(), values.size()) << name;
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_NEAR(got[name][i], values[i], tolerance) << name << "[" << i << "]";
  }
}

// A 2-process run over the golden digits data: batch 10 per process, 20 configured iterations per epoch
// (10 per process), 3 epochs. Returns the work folder.
std::string two_rank_setup(const std::string& tag) {
  const std::string dir = t::work_dir(tag);
  fs::create_directories(dir + "/out");
  t::write_text(dir + "/net_mpi.nntxt", config_text(10, 20, t::testdata(kGolden + "/data/train.csv")));
  return dir;
}

const std::string kInit = t::testdata(kGolden + "/initial_parameters.h5");

}  // namespace

TEST(TrainMpi, TwoProcessesMatchOneProcessOverTheSameGlobalBatches) {
  SKIP_WITHOUT_MPI();
  const std::string dir = two_rank_setup("mpi_parity");
  auto r = run_mpi(dir, 2, "train -c net_mpi.nntxt -p '" + kInit + "' -o out");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Training with MPI: 2 processes, 10 iterations per epoch each"), std::string::npos)
      << r.output;
  EXPECT_EQ(std::regex_search(r.output, std::regex("nncli\\[rank 1\\]: epoch")), false) << r.output;

  // One process, batch 20 = both ranks' batches, 10 iterations per epoch.
  const std::string one = dir + "/one";
  fs::create_directories(one);
  t::write_text(dir + "/net_one.nntxt", config_text(20, 10, interleaved_csv(dir, 10)));
  auto s = t::run_nncli(dir, "train -c net_one.nntxt -p '" + kInit + "' -o one");
  ASSERT_EQ(s.status, 0) << s.output;

  expect_same_parameters(dir + "/out/results_current_3.nnp", one + "/results_current_3.nnp", 1e-5);
  // The epoch cost is the mean loss over the same global batches.
  auto got = t::read_report(dir + "/out/monitoring_report.yml"),
       want = t::read_report(one + "/monitoring_report.yml");
  ASSERT_EQ(got.size(), 3u);
  ASSERT_EQ(want.size(), 3u);
  for (size_t e = 0; e < 3; ++e) EXPECT_NEAR(got[e][0].second, want[e][0].second, 1e-5) << "epoch " << e;
  EXPECT_EQ(t::read_text(dir + "/out/progress.txt"), "");

  // The comparison is meaningful: one process over the file's own order (other global batches) differs.
  fs::create_directories(dir + "/plain");
  t::write_text(dir + "/net_plain.nntxt", config_text(20, 10, t::testdata(kGolden + "/data/train.csv")));
  auto p = t::run_nncli(dir, "train -c net_plain.nntxt -p '" + kInit + "' -o plain");
  ASSERT_EQ(p.status, 0) << p.output;
  EXPECT_GT(max_parameter_difference(dir + "/out/results_current_3.nnp", dir + "/plain/results_current_3.nnp"),
            1e-3);
}

TEST(TrainMpi, KilledProcessEndsTheJobInBoundedTime) {
  SKIP_WITHOUT_MPI();
  const std::string dir = two_rank_setup("mpi_kill");
  auto r = run_mpi(dir, 2, "train -c net_mpi.nntxt -p '" + kInit + "' -o out --kill-at-iteration 15 --kill-rank 1",
                   120);
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.status, 124) << "the job hung until timeout ended it:\n" << r.output;
  EXPECT_LT(r.seconds, 60.0) << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex("rank 1 .*(signal 9|Killed)"))) << r.output;
}

TEST(TrainMpi, StalledProcessEndsTheJobAfterTheCollectiveTimeout) {
  SKIP_WITHOUT_MPI();
  const std::string dir = two_rank_setup("mpi_stall");
  auto r = run_mpi(dir, 2, "train -c net_mpi.nntxt -p '" + kInit + "' -o out --stop-at-iteration 5 --kill-rank 1",
                   120, "NNCLI_MPI_TIMEOUT=3");
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.status, 124) << "the job hung until timeout ended it:\n" << r.output;
  EXPECT_LT(r.seconds, 60.0) << r.output;
  EXPECT_NE(r.output.find("nncli[rank 0]: error: MPI all-reduce waited 3 s for the other processes"),
            std::string::npos)
      << r.output;
}

TEST(TrainMpi, ResumeAfterAKilledProcessContinuesFromRankZerosCheckpoint) {
  SKIP_WITHOUT_MPI();
  const std::string dir = two_rank_setup("mpi_resume");
  const std::string args = "train -c net_mpi.nntxt -p '" + kInit + "' -o out";
  auto killed = run_mpi(dir, 2, args + " --kill-at-iteration 15 --kill-rank 1", 120);
  ASSERT_NE(killed.status, 0) << killed.output;
  ASSERT_TRUE(fs::exists(dir + "/out/results_current_1.nnp")) << killed.output;
  auto resumed = run_mpi(dir, 2, args + " -r");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("Resume from epoch 2"), std::string::npos) << resumed.output;

  fs::create_directories(dir + "/straight");
  auto straight = run_mpi(dir, 2, "train -c net_mpi.nntxt -p '" + kInit + "' -o straight");
  ASSERT_EQ(straight.status, 0) << straight.output;
  expect_same_parameters(dir + "/out/results_current_3.nnp", dir + "/straight/results_current_3.nnp", 1e-6);
}

namespace {

// The golden config with a batch normalization of the given type between fc1 and relu1 in the training
// network; its beta and gamma are trained, its running mean and variance follow the batch statistics.
std::string with_batch_normalization(std::string text, const std::string& type) {
  const std::string param = type == "SyncBatchNormalization"
                                ? "sync_batch_normalization_param { axes: 1 decay_rate: 0.9 eps: 0.0001 "
                                  "batch_stat: true group: \"world\" }"
                                : "batch_normalization_param { axes: 1 decay_rate: 0.9 eps: 0.0001 "
                                  "batch_stat: true }";
  std::string variables;
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, int>>{{"beta", 0}, {"gamma", 1}, {"mean", 0}, {"var", 1}})
    variables += "  variable { name: \"bn/" + name + "\" type: \"Parameter\" shape { dim: 1 dim: 32 } " +
                 "initializer { type: \"Constant\" multiplier: " + std::to_string(value) + " } }\n";
  variables += "  variable { name: \"hb\" type: \"Buffer\" shape { dim: -1 dim: 32 } }\n";
  const std::string function = "  function { name: \"bn\" type: \"" + type +
                               "\" input: \"h1\" input: \"bn/beta\" input: \"bn/gamma\" input: \"bn/mean\" "
                               "input: \"bn/var\" output: \"hb\" " +
                               param + " }\n";
  // Only the first network ("Main", the optimizer's) gets the layer.
  const size_t relu = text.find("  function { name: \"relu1\" type: \"ReLU\" input: \"h1\"");
  text.replace(text.find("input: \"h1\"", relu), 11, "input: \"hb\"");
  text.insert(relu, function);
  text.insert(text.find("  variable { name: \"h1\""), variables);
  const std::string last_parameter =
      "  parameter_variable { variable_name: \"fc2/affine/b\" learning_rate_multiplier: 1 }\n";
  const size_t at = text.find(last_parameter) + last_parameter.size();
  text.insert(at,
              "  parameter_variable { variable_name: \"bn/beta\" learning_rate_multiplier: 1 }\n"
              "  parameter_variable { variable_name: \"bn/gamma\" learning_rate_multiplier: 1 }\n");
  return text;
}

}  // namespace

// SyncBatchNormalization over 2 processes of 10 samples normalizes with the statistics of all 20: the
// result equals BatchNormalization in one process over the same global batches (running statistics too).
TEST(TrainMpi, SyncBatchNormalizationOverTwoProcessesMatchesBatchNormalizationOverTheGlobalBatch) {
  SKIP_WITHOUT_MPI();
  const std::string dir = t::work_dir("mpi_sync_bn");
  fs::create_directories(dir + "/out");
  fs::create_directories(dir + "/one");
  fs::create_directories(dir + "/local");
  const std::string train_csv = t::testdata(kGolden + "/data/train.csv");
  t::write_text(dir + "/net_sync.nntxt",
                with_batch_normalization(config_text(10, 20, train_csv), "SyncBatchNormalization"));
  auto r = run_mpi(dir, 2, "train -c net_sync.nntxt -p '" + kInit + "' -o out");
  ASSERT_EQ(r.status, 0) << r.output;

  t::write_text(dir + "/net_one.nntxt",
                with_batch_normalization(config_text(20, 10, interleaved_csv(dir, 10)), "BatchNormalization"));
  auto s = t::run_nncli(dir, "train -c net_one.nntxt -p '" + kInit + "' -o one");
  ASSERT_EQ(s.status, 0) << s.output;
  auto got = t::read_parameters(dir + "/out/results_current_3.nnp");
  auto want = t::read_parameters(dir + "/one/results_current_3.nnp");
  ASSERT_EQ(got.size(), 8u);
  ASSERT_EQ(want.size(), 8u);
  for (const auto& [name, values] : want) {
    ASSERT_EQ(got[name].size(), values.size()) << name;
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_NEAR(got[name][i], values[i], 1e-5) << name << "[" << i << "]";
  }

  // The comparison is meaningful: plain BatchNormalization under MPI normalizes each half on its own.
  t::write_text(dir + "/net_local.nntxt",
                with_batch_normalization(config_text(10, 20, train_csv), "BatchNormalization"));
  auto l = run_mpi(dir, 2, "train -c net_local.nntxt -p '" + kInit + "' -o local");
  ASSERT_EQ(l.status, 0) << l.output;
  EXPECT_GT(max_parameter_difference(dir + "/local/results_current_3.nnp", dir + "/out/results_current_3.nnp"),
            1e-4);
}
