// Helpers for the format tests.
#include "formats_test_util.hpp"

#include <google/protobuf/util/message_differencer.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>

#include "formats/common/file_format.hpp"
#include "formats/nnp/proto_convert.hpp"
#include "nnabla.pb.h"

namespace nn::formats::test {

ScratchDir::ScratchDir() {
  static std::atomic<int> counter{0};
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string("nn_formats_") + (info ? info->name() : "x") + "_" + std::to_string(::getpid()) +
                     "_" + std::to_string(counter++);
  for (auto& c : name)
    if (c == '/') c = '_';
  dir_ = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::vector<std::string> find_files(const std::filesystem::path& root, const std::vector<std::string>& exts) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(root)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    std::string ext = file_extension(e.path().string());
    if (std::find(exts.begin(), exts.end(), ext) != exts.end()) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_models_equal(const ir::Model& a, const ir::Model& b) {
  // Everything but parameters and states through the proto form (complete for ir -> proto) ...
  nnp::ProtoParts parts;
  parts.parameters = false;
  nnabla::NNablaProtoBuf pa = nnp::model_to_proto(a, parts), pb = nnp::model_to_proto(b, parts);
  std::string diff;
  google::protobuf::util::MessageDifferencer differ;
  differ.ReportDifferencesToString(&diff);
  EXPECT_TRUE(differ.Compare(pa, pb)) << diff;
  // ... plus the attributes directly, so a lossy conversion cannot hide on both sides.
  ASSERT_EQ(a.networks.size(), b.networks.size());
  for (size_t n = 0; n < a.networks.size(); ++n) {
    const auto& fa = a.networks[n].functions;
    const auto& fb = b.networks[n].functions;
    ASSERT_EQ(fa.size(), fb.size());
    for (size_t i = 0; i < fa.size(); ++i) {
      EXPECT_EQ(fa[i].has_param, fb[i].has_param) << fa[i].name;
      EXPECT_TRUE(fa[i].attrs.values() == fb[i].attrs.values()) << fa[i].name;
    }
  }
  ASSERT_EQ(a.parameters.size(), b.parameters.size());
  for (size_t i = 0; i < a.parameters.size(); ++i) {
    const auto& x = a.parameters[i];
    const auto& y = b.parameters[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.shape, y.shape) << x.name;
    EXPECT_EQ(x.need_grad, y.need_grad) << x.name;
    EXPECT_TRUE(x.data == y.data) << x.name;
  }
  ASSERT_EQ(a.optimizers.size(), b.optimizers.size());
  for (size_t i = 0; i < a.optimizers.size(); ++i) {
    const auto& sa = a.optimizers[i].solver.states;
    const auto& sb = b.optimizers[i].solver.states;
    ASSERT_EQ(sa.size(), sb.size()) << a.optimizers[i].name;
    for (const auto& [name, state] : sa) {
      ASSERT_TRUE(sb.count(name)) << name;
      const auto& other = sb.at(name);
      EXPECT_EQ(state.t, other.t) << name;
      ASSERT_EQ(state.state_parameter.size(), other.state_parameter.size()) << name;
      for (const auto& [k, v] : state.state_parameter) {
        ASSERT_TRUE(other.state_parameter.count(k)) << name << "/" << k;
        EXPECT_EQ(v.shape, other.state_parameter.at(k).shape) << name << "/" << k;
        EXPECT_TRUE(v.data == other.state_parameter.at(k).data) << name << "/" << k;
      }
    }
  }
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text_file(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
}

}  // namespace nn::formats::test
