// Golden-directory discovery for the NNB tests (golden/README.md §2 naming).
#include "nnb_test_util.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace nn::formats::nnb::test {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<GoldenCase> golden_nnb_cases() {
  std::vector<GoldenCase> cases;
  const fs::path golden = testdata_dir() / "golden";
  if (!fs::exists(golden)) return cases;
  for (const auto& e : fs::recursive_directory_iterator(golden)) {
    if (e.path().filename() != "upstream.nnb") continue;
    GoldenCase c;
    c.dir = e.path().parent_path();
    if (fs::exists(c.dir / "upstream_generated.nnp")) {
      c.sources = {(c.dir / "upstream_generated.nnp").string()};
    } else {
      const fs::path rel = fs::relative(c.dir, golden);
      const fs::path parent = testdata_dir() / rel.parent_path();
      if (!fs::exists(parent)) continue;
      for (const auto& f : fs::directory_iterator(parent)) {
        std::string name = f.path().filename().string();
        std::replace(name.begin(), name.end(), '.', '_');
        if (name == rel.filename().string()) c.sources = {f.path().string()};
      }
      if (c.sources.empty()) continue;
      // A text model next to its parameter file (NNC's unpacked results).
      if (c.sources[0].size() > 6 && c.sources[0].substr(c.sources[0].size() - 6) == ".nntxt" &&
          fs::exists(parent / "parameters.h5"))
        c.sources.push_back((parent / "parameters.h5").string());
      if (fs::exists(c.dir / "custom_params.h5")) c.sources.push_back((c.dir / "custom_params.h5").string());
    }
    cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) { return a.dir < b.dir; });
  return cases;
}

}  // namespace nn::formats::nnb::test
