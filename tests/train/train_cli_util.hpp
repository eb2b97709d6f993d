// Helpers for the `nncli train` end-to-end tests: running nncli, scratch folders, reading reports and
// results.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::train_test {

// The nncli binary under test ("" when the tree has none).
const std::string& nncli();
// NN_TESTDATA_DIR + "/" + relative.
std::string testdata(const std::string& relative);
// A fresh, empty folder <build dir>/tests/train/work/<tag>.
std::string work_dir(const std::string& tag);

struct RunResult {
  int status = -1;     // exit status, or 128 + signal when killed
  std::string output;  // stdout and stderr together
};
// Runs "cd <cwd> && <nncli> <args>" through the shell.
RunResult run_nncli(const std::string& cwd, const std::string& args);

// monitoring_report.yml / .yaml: per epoch block, the values by key in file order.
std::vector<std::vector<std::pair<std::string, double>>> read_report(const std::string& path);
// Parameters of a result archive (or .h5), by name.
std::map<std::string, std::vector<float>> read_parameters(const std::string& path);
// Raw float32 files of a golden trained_params folder listed in its manifest (name \t shape \t file).
std::map<std::string, std::vector<float>> read_golden_parameters(const std::string& dir,
                                                                 const std::string& manifest);

void write_text(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);

}  // namespace nn::train_test
