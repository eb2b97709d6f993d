// Helpers for the `nncli train` end-to-end tests.
#include "train_cli_util.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "formats/nnp/nnp_reader.hpp"

namespace nn::train_test {

namespace fs = std::filesystem;

// NNCLI_PATH / NN_TESTDATA_DIR in the environment override the build's (for bundles run on another machine,
// scripts/gpu_device_run.sh).
const std::string& nncli() {
#ifdef NNCLI_PATH
  static const std::string path = std::getenv("NNCLI_PATH") ? std::getenv("NNCLI_PATH") : NNCLI_PATH;
#else
  static const std::string path;
#endif
  return path;
}

std::string testdata(const std::string& relative) {
  const char* dir = std::getenv("NN_TESTDATA_DIR");
  return std::string(dir ? dir : NN_TESTDATA_DIR) + "/" + relative;
}

std::string work_dir(const std::string& tag) {
  // Per test: ctest runs tests in parallel, and two tests may use the same tag.
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string test = info ? std::string(info->test_suite_name()) + "." + info->name() : "no_test";
  const fs::path dir = fs::path(NN_TRAIN_WORK_DIR) / test / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

RunResult run_nncli(const std::string& cwd, const std::string& args) {
  static int counter = 0;
  const std::string log = (fs::path(NN_TRAIN_WORK_DIR) /
                           ("run_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".log"))
                              .string();
  fs::create_directories(NN_TRAIN_WORK_DIR);
  const std::string cmd = "cd '" + cwd + "' && '" + nncli() + "' " + args + " > '" + log + "' 2>&1";
  const int raw = std::system(cmd.c_str());
  RunResult r;
  // The shell reports a child killed by signal s as 128 + s.
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.output = read_text(log);
  fs::remove(log);
  return r;
}

std::vector<std::vector<std::pair<std::string, double>>> read_report(const std::string& path) {
  std::vector<std::vector<std::pair<std::string, double>>> out;
  std::istringstream is(read_text(path));
  std::string line;
  while (std::getline(is, line)) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      out.emplace_back();
      continue;
    }
    const size_t colon = line.find(':');
    if (out.empty() || colon == std::string::npos) continue;
    const size_t start = line.find_first_not_of(' ');
    out.back().push_back({line.substr(start, colon - start), std::stod(line.substr(colon + 1))});
  }
  return out;
}

std::map<std::string, std::vector<float>> read_parameters(const std::string& path) {
  std::map<std::string, std::vector<float>> out;
  for (auto& p : nn::formats::load_model({path}).parameters) out[p.name] = p.data;
  return out;
}

std::map<std::string, std::vector<float>> read_golden_parameters(const std::string& dir,
                                                                 const std::string& manifest) {
  std::map<std::string, std::vector<float>> out;
  std::istringstream is(read_text(dir + "/" + manifest));
  std::string line;
  std::getline(is, line);  // header
  while (std::getline(is, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, '\t')) cells.push_back(cell);
    if (cells.size() < 3) continue;
    const std::string bytes = read_text(dir + "/" + cells[2]);
    std::vector<float> v(bytes.size() / 4);
    std::memcpy(v.data(), bytes.data(), v.size() * 4);
    out[cells[0]] = v;
  }
  return out;
}

void write_text(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace nn::train_test
