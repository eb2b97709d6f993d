// YOLO label files, k-means anchors and the detection grid arrays (detection_labels.hpp).
#include "formats/datasets/detection_labels.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

#include "nn/core/error.hpp"

namespace nn::formats::datasets {

namespace {

// A whole token as a finite double ('+' allowed, as Python's float()).
bool parse_finite(std::string_view token, double& value) {
  if (!token.empty() && token[0] == '+') token.remove_prefix(1);
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  return ec == std::errc() && end == token.data() + token.size() && std::isfinite(value);
}

double squared_distance(const std::array<double, 2>& a, const std::array<double, 2>& b) {
  const double dx = a[0] - b[0], dy = a[1] - b[1];
  return dx * dx + dy * dy;
}

// Left, top, right, bottom of a box given by centre and size (upstream's ObjectRect(XYWH=...)).
struct Rect {
  double l, t, r, b;
  static Rect from_center(double cx, double cy, double w, double h) {
    return {cx - w * 0.5, cy - h * 0.5, cx + w * 0.5, cy + h * 0.5};
  }
  double width() const { return r - l; }
  double height() const { return b - t; }
  double cx() const { return (l + r) * 0.5; }
  double cy() const { return (t + b) * 0.5; }
};

double iou(const Rect& a, const Rect& b) {
  const double w = std::max(std::min(a.r, b.r) - std::max(a.l, b.l), 0.0);
  const double h = std::max(std::min(a.b, b.b) - std::max(a.t, b.t), 0.0);
  const double overlap = w * h;
  return overlap / (a.width() * a.height() + b.width() * b.height() - overlap);
}

}  // namespace

std::vector<int> numpy_randint(int k, size_t n, uint32_t seed) {
  std::vector<int> out(n, 0);
  if (k <= 1) return out;
  const uint32_t max = uint32_t(k - 1);
  uint32_t mask = max;
  for (int shift = 1; shift < 32; shift <<= 1) mask |= mask >> shift;
  std::mt19937 gen(seed);  // the same initialisation as numpy's mt19937_seed (init_genrand)
  for (int& v : out) {
    uint32_t r;
    while ((r = uint32_t(gen()) & mask) > max) {
    }
    v = int(r);
  }
  return out;
}

std::vector<BoxLabel> parse_box_labels(const std::string& text, std::vector<std::string>* skipped) {
  std::vector<BoxLabel> boxes;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    std::vector<std::string_view> tokens;
    const std::string_view view(line);
    for (size_t i = 0; i < view.size();) {
      const size_t start = view.find_first_not_of(" \t\r\v\f", i);
      if (start == std::string_view::npos) break;
      const size_t end = std::min(view.find_first_of(" \t\r\v\f", start), view.size());
      tokens.push_back(view.substr(start, end - start));
      i = end;
    }
    if (tokens.size() != 5) continue;
    double v[5];
    bool ok = true;
    for (size_t i = 0; i < 5; ++i) ok = ok && parse_finite(tokens[i], v[i]);
    ok = ok && v[0] > double(std::numeric_limits<int>::min()) - 1.0 &&
         v[0] < double(std::numeric_limits<int>::max()) + 1.0;
    if (!ok) {
      if (skipped) skipped->push_back("line " + std::to_string(number) + ": '" + line + "' is not 5 numbers");
      continue;
    }
    boxes.push_back(BoxLabel{int(v[0]), v[1], v[2], v[3], v[4]});  // int(): truncation, as Python's int()
  }
  return boxes;
}

std::vector<std::array<double, 2>> kmeans_anchors(const std::vector<std::array<double, 2>>& sizes, int k,
                                                  int max_iterations) {
  NN_CHECK(k >= 1) << "the number of anchors must be positive (got " << k << ")";
  NN_CHECK(!sizes.empty()) << "no box to compute anchors from";
  const size_t n = sizes.size();
  std::vector<int> classes = numpy_randint(k, n, 0);
  std::vector<std::array<double, 2>> means(size_t(k), {0.0, 0.0});
  std::vector<int> next(n);
  for (int loop = 0; loop < max_iterations; ++loop) {
    std::vector<size_t> count(size_t(k), 0);
    std::vector<std::array<double, 2>> sums(size_t(k), {0.0, 0.0});
    for (size_t i = 0; i < n; ++i) {
      auto& s = sums[size_t(classes[i])];
      s[0] += sizes[i][0];
      s[1] += sizes[i][1];
      ++count[size_t(classes[i])];
    }
    std::vector<size_t> empty;
    for (size_t c = 0; c < size_t(k); ++c) {
      if (count[c] == 0) {
        empty.push_back(c);
        continue;
      }
      means[c] = {sums[c][0] / double(count[c]), sums[c][1] / double(count[c])};
    }
    // An empty cluster restarts at the size farthest from the means placed so far (never NaN).
    std::vector<bool> placed(size_t(k), false);
    for (size_t c = 0; c < size_t(k); ++c) placed[c] = count[c] != 0;
    for (size_t c : empty) {
      size_t far = 0;
      double far_d = -1.0;
      for (size_t i = 0; i < n; ++i) {
        double d = std::numeric_limits<double>::infinity();
        for (size_t m = 0; m < size_t(k); ++m)
          if (placed[m]) d = std::min(d, squared_distance(sizes[i], means[m]));
        if (d > far_d) far_d = d, far = i;
      }
      means[c] = sizes[far];
      placed[c] = true;
    }
    for (size_t i = 0; i < n; ++i) {
      int best = 0;
      double best_d = squared_distance(sizes[i], means[0]);
      for (int c = 1; c < k; ++c) {
        const double d = squared_distance(sizes[i], means[size_t(c)]);
        if (d < best_d) best_d = d, best = c;
      }
      next[i] = best;
    }
    if (next == classes) break;
    classes = next;
  }
  std::vector<size_t> order(static_cast<size_t>(k));
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return means[a][0] * means[a][1] < means[b][0] * means[b][1]; });
  std::vector<std::array<double, 2>> sorted;
  for (size_t c : order) sorted.push_back(means[c]);
  return sorted;
}

DetectionTargets detection_targets(const std::vector<BoxLabel>& boxes,
                                   const std::vector<std::array<double, 2>>& anchors, int grid_w, int grid_h) {
  NN_CHECK(grid_w > 0 && grid_h > 0 && !anchors.empty()) << "empty detection grid";
  DetectionTargets t;
  t.num_anchor = int(anchors.size());
  t.grid_h = grid_h;
  t.grid_w = grid_w;
  const size_t cells = size_t(grid_h) * size_t(grid_w);
  t.label.assign(anchors.size() * cells, -1);
  t.region.assign(anchors.size() * cells * 4, 0.0);
  for (const BoxLabel& box : boxes) {
    Rect r = Rect::from_center(box.cx, box.cy, box.w, box.h);
    for (double* v : {&r.l, &r.t, &r.r, &r.b}) *v = std::clamp(*v, 0.0, 1.0);
    if (!(r.width() > 0.0 && r.height() > 0.0)) continue;
    // The centre is below 1 here, so the cell is inside the grid; the clamp guards rounding only.
    const int gx = std::min(int(r.cx() * grid_w), grid_w - 1);
    const int gy = std::min(int(r.cy() * grid_h), grid_h - 1);
    const double cell_x = (gx + 0.5) / grid_w, cell_y = (gy + 0.5) / grid_h;
    size_t best = 0;
    double best_iou = 0.0;
    Rect anchor{};
    for (size_t a = 0; a < anchors.size(); ++a) {
      anchor = Rect::from_center(cell_x, cell_y, anchors[a][0], anchors[a][1]);
      const double v = iou(r, anchor);
      if (v > best_iou) best_iou = v, best = a;
    }
    const size_t cell = best * cells + size_t(gy) * size_t(grid_w) + size_t(gx);
    t.label[cell] = box.label;
    double* region = &t.region[cell * 4];
    region[0] = (r.cx() - anchor.cx()) * grid_w + 0.5;
    region[1] = (r.cy() - anchor.cy()) * grid_h + 0.5;
    region[2] = std::log(r.width() * grid_w);
    region[3] = std::log(r.height() * grid_h);
  }
  return t;
}

std::string label_csv_text(const DetectionTargets& t) {
  std::string text;
  const size_t rows = size_t(t.num_anchor) * size_t(t.grid_h), cols = size_t(t.grid_w);
  text.reserve(rows * cols * 3);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      if (c) text += ',';
      text += std::to_string(t.label[r * cols + c]);
    }
    text += '\n';
  }
  return text;
}

std::string region_csv_text(const DetectionTargets& t) {
  std::string text;
  const size_t rows = size_t(t.num_anchor) * size_t(t.grid_h), cols = size_t(t.grid_w) * 4;
  text.reserve(rows * cols * 10);
  char buf[64];
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      if (c) text += ',';
      std::snprintf(buf, sizeof buf, "%f", t.region[r * cols + c]);
      text += buf;
    }
    text += '\n';
  }
  return text;
}

}  // namespace nn::formats::datasets
