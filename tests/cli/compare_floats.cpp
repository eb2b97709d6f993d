// Test helper: compares raw float32 files element-wise, |a - b| <= atol + rtol * |b| (b = golden).
// ACTUAL and GOLDEN may each be a comma-separated list of files, compared as their concatenation.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

bool read_floats(const std::string& list, std::vector<float>& out) {
  std::string bytes;
  size_t begin = 0;
  while (begin <= list.size()) {
    size_t end = list.find(',', begin);
    if (end == std::string::npos) end = list.size();
    std::ifstream in(list.substr(begin, end - begin), std::ios::binary);
    if (!in) return false;
    bytes.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    begin = end + 1;
  }
  if (bytes.size() % sizeof(float) != 0) return false;
  out.resize(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  double rtol = 1e-4, atol = 1e-5;
  std::vector<const char*> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--rtol") && i + 1 < argc) {
      rtol = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--atol") && i + 1 < argc) {
      atol = std::atof(argv[++i]);
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "usage: compare_floats [--rtol X] [--atol X] ACTUAL GOLDEN\n");
    return 2;
  }
  std::vector<float> a, b;
  if (!read_floats(files[0], a) || !read_floats(files[1], b)) {
    std::fprintf(stderr, "compare_floats: cannot read %s or %s as float32\n", files[0], files[1]);
    return 1;
  }
  if (a.size() != b.size()) {
    std::fprintf(stderr, "compare_floats: %zu values vs %zu golden values\n", a.size(), b.size());
    return 1;
  }
  size_t bad = 0, first = 0;
  double worst = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double diff = std::fabs(double(a[i]) - double(b[i]));
    worst = std::max(worst, diff);
    if (!(diff <= atol + rtol * std::fabs(double(b[i])))) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad) {
    std::fprintf(stderr,
                 "compare_floats: %zu of %zu values differ; first at %zu: %.9g vs golden %.9g (max |diff| %.3g)\n",
                 bad, a.size(), first, a[first], b[first], worst);
    return 1;
  }
  std::fprintf(stderr, "compare_floats: %zu values match (max |diff| %.3g)\n", a.size(), worst);
  return 0;
}
