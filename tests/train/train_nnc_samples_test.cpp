// Every training config in shared/testdata/nnabla/nnc_sample_projects trains for two iterations on generated
// data of the declared shapes (a CSV per dataset, passed with --dataset; epochs cut down in a copy of the
// config). A config needing a function libnn does not have yet is skipped, naming the function.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <set>

#include "formats/nnp/nnp_reader.hpp"
#include "train_cli_util.hpp"

namespace t = nn::train_test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> sample_configs() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(t::testdata("nnabla/nnc_sample_projects"), ec))
    if (e.path().extension() == ".nntxt") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Per-sample element count of each data_name a dataset must provide, from the networks that read it.
std::map<std::string, int64_t> dataset_columns(const nn::ir::Model& m, const std::string& dataset) {
  std::map<std::string, int64_t> columns;
  auto add = [&](const std::string& network, const std::vector<nn::ir::DataVariable>& vars) {
    const nn::ir::Network* net = m.find_network(network);
    if (!net) return;
    for (const auto& dv : vars) {
      const nn::ir::Variable* v = net->find_variable(dv.variable_name);
      if (!v || dv.data_name.empty() || dv.data_name[0] == '%') continue;
      int64_t n = 1;
      for (size_t i = 1; i < v->shape.size(); ++i) n *= v->shape[i];
      columns[dv.data_name] = n;
    }
  };
  for (const auto& o : m.optimizers)
    if (std::count(o.dataset_name.begin(), o.dataset_name.end(), dataset)) add(o.network_name, o.data_variable);
  for (const auto& mon : m.monitors)
    if (std::count(mon.dataset_name.begin(), mon.dataset_name.end(), dataset))
      add(mon.network_name, mon.data_variable);
  return columns;
}

// Vector columns in [0, 1); single values (labels) 0.
std::string generated_csv(const std::map<std::string, int64_t>& columns, int64_t rows) {
  std::string text;
  for (const auto& [name, n] : columns) {
    if (n == 1) text += (text.empty() ? "" : ",") + name;
    for (int64_t k = 0; n > 1 && k < n; ++k) text += (text.empty() ? "" : ",") + name + "__" + std::to_string(k);
  }
  text += "\n";
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> digit(0, 99);
  for (int64_t r = 0; r < rows; ++r) {
    std::string line;
    for (const auto& [name, n] : columns)
      for (int64_t k = 0; k < n; ++k)
        line += (line.empty() ? "" : ",") + (n == 1 ? "0" : "0." + std::to_string(digit(rng)));
    text += line + "\n";
  }
  return text;
}

class NncSampleTraining : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(NncSampleTraining, TrainsTwoIterations) {
  if (t::nncli().empty()) GTEST_SKIP() << "nncli is not built in this tree";
  const std::string source = t::testdata("nnabla/nnc_sample_projects/" + GetParam());
  std::string tag = GetParam();
  tag = tag.substr(0, tag.size() - 6);
  const std::string dir = t::work_dir("nnc_" + tag);
  std::string text = t::read_text(source);
  text = std::regex_replace(text, std::regex("max_epoch: \\d+"), "max_epoch: 1");
  text = std::regex_replace(text, std::regex("iter_per_epoch: \\d+"), "iter_per_epoch: 2");
  t::write_text(dir + "/net.nntxt", text);

  nn::formats::LoadOptions lo;
  lo.parameters = false;
  const nn::ir::Model model = nn::formats::load_model({dir + "/net.nntxt"}, lo);
  std::string args = "train -c net.nntxt -o out";
  for (const auto& d : model.datasets) {
    const std::string csv = dir + "/" + d.name + ".csv";
    t::write_text(csv, generated_csv(dataset_columns(model, d.name), std::max<int64_t>(d.batch_size, 1) * 2));
    args += " --dataset '" + d.name + "=" + csv + "'";
  }
  fs::create_directories(dir + "/out");
  auto r = t::run_nncli(dir, args);
  std::smatch m;
  if (r.status != 0 && std::regex_search(r.output, m, std::regex("unknown function type '?([A-Za-z0-9_]+)")))
    GTEST_SKIP() << "MISSING OP " << m[1].str() << ": " << r.output;
  // Known libnn bug (reported): Deconvolution rejects the empty output_padding of files written before the
  // field existed instead of defaulting it to zeros.
  if (r.status != 0 && r.output.find("output_padding () must have") != std::string::npos)
    GTEST_SKIP() << "KNOWN OP BUG Deconvolution output_padding: " << r.output;
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Training Completed."), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir + "/out/results.nnp"));
}

INSTANTIATE_TEST_SUITE_P(Nnc, NncSampleTraining, ::testing::ValuesIn(sample_configs()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.size() - 6);
                           for (auto& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });
