// `nncli train` on bad input: each case fails with one clear error line naming the file (and line), a
// non-zero exit status, and leaves the files of an earlier run in the output directory untouched.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <regex>

#include "formats/common/zip_archive.hpp"
#include "formats/datasets/image_io.hpp"
#include "train_cli_util.hpp"

namespace t = nn::train_test;
namespace fs = std::filesystem;

namespace {

const char* kConfig =
    R"(global_config { default_context { backends: "cpu:float" array_class: "CpuCachedArray" device_id: "0" } }
training_config { max_epoch: 2 iter_per_epoch: 4 save_best: true monitor_interval: 1 }
network {
  name: "Main"
  batch_size: 2
  variable { name: "x" type: "Buffer" shape { dim: -1 dim: 1 dim: 2 dim: 2 } }
  variable { name: "y" type: "Buffer" shape { dim: -1 dim: 1 } }
  variable { name: "W" type: "Parameter" shape { dim: 4 dim: 3 } initializer { type: "NormalAffineGlorot" multiplier: 1 } }
  variable { name: "b" type: "Parameter" shape { dim: 3 } initializer { type: "Constant" multiplier: 0 } }
  variable { name: "h" type: "Buffer" shape { dim: -1 dim: 3 } }
  variable { name: "loss" type: "Buffer" shape { dim: -1 dim: 1 } }
  function { name: "fc" type: "Affine" input: "x" input: "W" input: "b" output: "h" affine_param { base_axis: 1 } }
  function { name: "sce" type: "SoftmaxCrossEntropy" input: "h" input: "y" output: "loss" softmax_cross_entropy_param { axis: 1 } }
}
dataset { name: "Training" uri: "data/train.csv" batch_size: 2 shuffle: false }
optimizer {
  name: "Optimizer"
  network_name: "Main"
  dataset_name: "Training"
  solver { type: "Sgd" sgd_param { lr: 0.1 } }
  update_interval: 1
  data_variable { variable_name: "x" data_name: "x" }
  data_variable { variable_name: "y" data_name: "y" }
  loss_variable { variable_name: "loss" }
  parameter_variable { variable_name: "W" learning_rate_multiplier: 1 }
  parameter_variable { variable_name: "b" learning_rate_multiplier: 1 }
}
monitor {
  name: "valid_error"
  network_name: "Main"
  dataset_name: "Training"
  data_variable { variable_name: "x" data_name: "x" }
  data_variable { variable_name: "y" data_name: "y" }
  monitor_variable { type: "Error" variable_name: "loss" }
}
)";

// A folder with 8 PNG images (2x2 gray), data/train.csv, net.nntxt and the outputs of one good run in out/.
class TrainBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
    dir_ = t::work_dir(std::string("bad_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ + "/data/img");
    std::string csv = "x:image,y:label\n";
    for (int i = 0; i < 8; ++i) {
      nn::formats::datasets::write_png(dir_ + "/data/img/" + std::to_string(i) + ".png", 2, 2, 1,
                                       {uint8_t(30 * i), uint8_t(255 - 20 * i), 7, uint8_t(i * i)});
      csv += "./img/" + std::to_string(i) + ".png," + std::to_string(i % 3) + "\n";
    }
    t::write_text(dir_ + "/data/train.csv", csv);
    t::write_text(dir_ + "/net.nntxt", kConfig);
    fs::create_directories(dir_ + "/out");
    auto good = t::run_nncli(dir_, "train -c net.nntxt -o out");
    ASSERT_EQ(good.status, 0) << good.output;
    before_ = snapshot();
    ASSERT_TRUE(before_.count("results.nnp"));
    ASSERT_TRUE(before_.count("monitoring_report.yml"));
  }

  std::map<std::string, std::string> snapshot() const {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::directory_iterator(dir_ + "/out"))
      if (e.path().filename() != "progress.txt")
        files[e.path().filename().string()] = t::read_text(e.path().string());
    return files;
  }

  void replace_in(const std::string& file, const std::string& from, const std::string& to) {
    const std::string path = dir_ + "/" + file;
    std::string text = t::read_text(path);
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    t::write_text(path, text.replace(at, from.size(), to));
  }

  // Runs the failing training; checks status 1, one error line containing every fragment, outdir intact.
  void expect_failure(const std::vector<std::string>& fragments, const std::string& outdir = "out") {
    auto r = t::run_nncli(dir_, "train -c net.nntxt -o " + outdir);
    EXPECT_EQ(r.status, 1) << r.output;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.output, m, std::regex("nncli: error: ([^\n]*)\n"))) << r.output;
    const std::string line = m[1].str();
    for (const auto& f : fragments) EXPECT_NE(line.find(f), std::string::npos) << "'" << f << "' not in: " << line;
    EXPECT_EQ(std::regex_search(m.suffix().str(), std::regex("nncli: error:")), false) << r.output;
    EXPECT_EQ(snapshot(), before_);
  }

  std::string dir_;
  std::map<std::string, std::string> before_;
};

}  // namespace

TEST_F(TrainBadInput, CsvRowNamesAMissingFile) {
  replace_in("data/train.csv", "./img/5.png", "./img/missing.png");
  expect_failure({"missing.png", "train.csv:7"});
}

TEST_F(TrainBadInput, CsvRowHasTheWrongColumnCount) {
  replace_in("data/train.csv", "./img/3.png,0", "./img/3.png,0,4");
  expect_failure({"train.csv:5"});
}

TEST_F(TrainBadInput, ImageOfTheWrongSize) {
  nn::formats::datasets::write_png(dir_ + "/data/img/6.png", 3, 3, 1, std::vector<uint8_t>(9, 1));
  expect_failure({"6.png", "train.csv:8"});
}

TEST_F(TrainBadInput, UnknownSolver) {
  replace_in("net.nntxt", "type: \"Sgd\" sgd_param { lr: 0.1 }", "type: \"Foo\"");
  expect_failure({"net.nntxt", "optimizer 'Optimizer'", "Solver \"Foo\" is not supported."});
}

TEST_F(TrainBadInput, OptimizerNamesAMissingNetwork) {
  replace_in("net.nntxt", "network_name: \"Main\"\n  dataset_name", "network_name: \"Mian\"\n  dataset_name");
  expect_failure({"net.nntxt", "optimizer 'Optimizer'", "network 'Mian' is not defined (networks: 'Main')"});
}

TEST_F(TrainBadInput, OptimizerNamesAMissingDataset) {
  replace_in("net.nntxt", "dataset_name: \"Training\"\n  solver", "dataset_name: \"Train\"\n  solver");
  expect_failure({"net.nntxt", "optimizer 'Optimizer'", "dataset 'Train' is not defined (datasets: 'Training')"});
}

TEST_F(TrainBadInput, OutputDirectoryIsNotWritable) {
  // /proc refuses new files even for root, where a chmod'ed folder would not.
  expect_failure({"'/proc'", "not writable"}, "/proc");
  expect_failure({"cannot create the output directory 'net.nntxt/sub'"}, "net.nntxt/sub");
}

TEST_F(TrainBadInput, EmptyDatasetUri) {
  replace_in("net.nntxt", "uri: \"data/train.csv\"", "uri: \"\"");
  expect_failure({"Fatal error. Dataset URI is empty."});
}

TEST_F(TrainBadInput, MissingOutputDirectoryIsCreated) {
  auto r = t::run_nncli(dir_, "train -c net.nntxt -o new/deeper");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir_ + "/new/deeper/results.nnp"));
}

TEST_F(TrainBadInput, SecondRunIntoTheSameDirectoryIsRefused) {
  // Another training holds the directory's lock (flock, as a running nncli train does).
  const int fd = ::open((dir_ + "/out/.nncli_train.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  expect_failure({"output directory 'out' is in use by another 'nncli train' run"});
  ::close(fd);
}

TEST_F(TrainBadInput, TemporaryFilesOfAKilledRunAreRemoved) {
  t::write_text(dir_ + "/out/results.nnp.tmp.Ab12Cd", std::string(1000, 'x'));
  t::write_text(dir_ + "/out/keep.tmp.txt", "not ours");
  auto r = t::run_nncli(dir_, "train -c net.nntxt -o out");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(fs::exists(dir_ + "/out/results.nnp.tmp.Ab12Cd"));
  EXPECT_TRUE(fs::exists(dir_ + "/out/keep.tmp.txt"));
}

TEST_F(TrainBadInput, MonitorDatasetSmallerThanItsBatchIsRefused) {
  t::write_text(dir_ + "/data/tiny.csv", "x:image,y:label\n./img/0.png,0\n");
  replace_in("net.nntxt", "dataset { name: \"Training\"",
             "dataset { name: \"Tiny\" uri: \"data/tiny.csv\" batch_size: 2 shuffle: false }\ndataset { name: "
             "\"Training\"");
  replace_in("net.nntxt", "network_name: \"Main\"\n  dataset_name: \"Training\"\n  data_variable",
             "network_name: \"Main\"\n  dataset_name: \"Tiny\"\n  data_variable");
  expect_failure({"monitor 'valid_error'", "dataset 'Tiny' has 1 samples, fewer than its batch size 2"});
}

// train_state.txt of a checkpoint edited by hand: each value is checked before it is used.
TEST_F(TrainBadInput, TamperedTrainStateIsRefused) {
  // A checkpoint mid-training (SIGINT after 3 of 8 iterations).
  auto stopped = t::run_nncli(dir_, "train -c net.nntxt -o ckpt --interrupt-at-iteration 3");
  ASSERT_EQ(stopped.status, 130) << stopped.output;
  const std::string path = dir_ + "/ckpt/train_checkpoint.nnp";
  std::vector<std::pair<std::string, std::string>> members;  // name, bytes
  {
    const auto zip = nn::formats::ZipReader::open_file(path);
    for (size_t i = 0; i < zip.names().size(); ++i) members.push_back({zip.names()[i], zip.read(i)});
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"train_position\t99999999\tTraining", "dataset 'Training' position 99999999 is impossible after 3"},
      {"iteration\t9.2e18", "train_state.txt:2: bad line"},
      {"iteration\t-5", "negative count"},
      {"iteration\t99", "iteration 99 is outside this training (8 iterations)"},
  };
  for (const auto& [line, message] : cases) {
    auto edited = members;
    for (auto& [name, data] : edited) {
      if (name != "train_state.txt") continue;
      const std::string key = line.substr(0, line.find('\t') + 1);
      const size_t at = data.find("\n" + key);
      ASSERT_NE(at, std::string::npos) << key;
      data.replace(at + 1, data.find('\n', at + 1) - at - 1, line);
    }
    std::vector<nn::formats::ZipMember> zip;
    for (const auto& [name, data] : edited) zip.push_back({name, data});
    nn::formats::write_zip(path, zip);
    auto r = t::run_nncli(dir_, "train -c net.nntxt -o ckpt -r");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << line << ":\n" << r.output;
  }
}

TEST_F(TrainBadInput, LabelOutsideTheClassesNamesTheCsvRow) {
  replace_in("data/train.csv", "./img/5.png,2", "./img/5.png,3");  // 3 classes: 0, 1, 2
  expect_failure({"optimizer 'Optimizer'", "train.csv:7: column 2 ('y:label')", "class index 3", "outside [0, 3)",
                  "'sce' (SoftmaxCrossEntropy)"});
}

TEST_F(TrainBadInput, NegativeLabelInAMonitorsDatasetNamesTheCsvRow) {
  t::write_text(dir_ + "/data/valid.csv", "x:image,y:label\n./img/0.png,0\n./img/1.png,-1\n");
  replace_in("net.nntxt", "dataset { name: \"Training\"",
             "dataset { name: \"Validation\" uri: \"data/valid.csv\" batch_size: 2 shuffle: false }\n"
             "dataset { name: \"Training\"");
  replace_in("net.nntxt", "name: \"valid_error\"\n  network_name: \"Main\"\n  dataset_name: \"Training\"",
             "name: \"valid_error\"\n  network_name: \"Main\"\n  dataset_name: \"Validation\"");
  expect_failure({"valid.csv:3: column 2 ('y:label')", "class index -1", "outside [0, 3)"});
}

TEST_F(TrainBadInput, LabelOutsideTheClassesInACacheNamesItsOriginalRow) {
  replace_in("data/train.csv", "./img/4.png,1", "./img/4.png,7");
  replace_in("net.nntxt", "batch_size: 2 shuffle: false }",
             "batch_size: 2 shuffle: false cache_dir: \"data/train.cache\" create_cache_explicitly: true }");
  expect_failure({"train.cache/cache_", "data row 5 of", "original.csv", "class index 7"});
}

// A cache_dir that does not exist yet gets the implicit cache upstream writes from the CSV (renamed into place
// whole); the next run reads it, also when the images are gone, and trains the same.
TEST_F(TrainBadInput, ImplicitCacheIsWrittenThenRead) {
  replace_in("net.nntxt", "batch_size: 2 shuffle: false }",
             "batch_size: 2 shuffle: false cache_dir: \"data/train.cache\" }");
  auto first = t::run_nncli(dir_, "train -c net.nntxt -o out2");
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_TRUE(fs::exists(dir_ + "/data/train.cache/cache_index.csv"));
  for (const auto& e : fs::directory_iterator(dir_ + "/data"))
    EXPECT_EQ(e.path().filename().string().find(".partial-"), std::string::npos) << e.path();
  fs::remove_all(dir_ + "/data/img");
  auto second = t::run_nncli(dir_, "train -c net.nntxt -o out3");
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_EQ(t::read_report(dir_ + "/out3/monitoring_report.yml"),
            t::read_report(dir_ + "/out/monitoring_report.yml"));
}

// A cache_dir that cannot be created (under a regular file): a warning, and the run reads the CSV.
TEST_F(TrainBadInput, UnwritableCacheDirectoryReadsTheCsv) {
  replace_in("net.nntxt", "batch_size: 2 shuffle: false }",
             "batch_size: 2 shuffle: false cache_dir: \"data/train.csv/sub.cache\" }");
  auto r = t::run_nncli(dir_, "train -c net.nntxt -o out2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("cannot write its cache"), std::string::npos) << r.output;
  EXPECT_EQ(t::read_report(dir_ + "/out2/monitoring_report.yml"),
            t::read_report(dir_ + "/out/monitoring_report.yml"));
}

// A cache_dir naming a file that is not a directory: the file is left as it is, a warning, the CSV is read.
TEST_F(TrainBadInput, CacheDirectoryThatIsAFileIsLeftAlone) {
  t::write_text(dir_ + "/data/train.cache", "the user's file\n");
  replace_in("net.nntxt", "batch_size: 2 shuffle: false }",
             "batch_size: 2 shuffle: false cache_dir: \"data/train.cache\" }");
  auto r = t::run_nncli(dir_, "train -c net.nntxt -o out2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("cannot write its cache"), std::string::npos) << r.output;
  EXPECT_EQ(t::read_text(dir_ + "/data/train.cache"), "the user's file\n");
  EXPECT_EQ(t::read_report(dir_ + "/out2/monitoring_report.yml"),
            t::read_report(dir_ + "/out/monitoring_report.yml"));
}

// A missing image while the implicit cache is written: one error line naming the CSV row, and no cache (whole or
// partial) left beside the data.
TEST_F(TrainBadInput, MissingImageWhileWritingTheCacheLeavesNoCache) {
  replace_in("net.nntxt", "batch_size: 2 shuffle: false }",
             "batch_size: 2 shuffle: false cache_dir: \"data/train.cache\" }");
  fs::remove(dir_ + "/data/img/5.png");
  expect_failure({"train.csv:7", "5.png", "cannot open"});
  for (const auto& e : fs::directory_iterator(dir_ + "/data"))
    EXPECT_EQ(e.path().filename().string().find(".cache"), std::string::npos) << e.path();
}
