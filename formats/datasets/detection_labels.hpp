// Object detection labels as nnabla's create_object_detection_dataset reads and writes them: YOLO label
// text files ("class cx cy w h" per line, normalised to the image), k-means anchors over the box sizes,
// and the per-image grid arrays (class per anchor and cell, box regression per anchor and cell).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nn::formats::datasets {

// One box: class id and centre/size, all normalised to the image (0..1).
struct BoxLabel {
  int label = 0;
  double cx = 0.0, cy = 0.0, w = 0.0, h = 0.0;
};

// The boxes of a label file's text. Lines without exactly 5 values are skipped (as upstream); a line of 5
// values that are not all finite numbers (or a class id beyond int) is skipped and described in *skipped
// ("line N: ...") when skipped is given.
std::vector<BoxLabel> parse_box_labels(const std::string& text, std::vector<std::string>* skipped = nullptr);

// numpy's legacy np.random.seed(seed); np.random.randint(k, size=n): MT19937 (numpy's seeding is
// std::mt19937's), each value a 32-bit draw masked to the smallest 2^m - 1 >= k - 1, redrawn while above
// k - 1; no draw at all when k == 1.
std::vector<int> numpy_randint(int k, size_t n, uint32_t seed);

// Anchor sizes (w, h) by k-means over the box sizes, as upstream: the initial cluster of each box drawn as
// numpy's RandomState(0).randint(k, size=n) (MT19937 seeded with 0, masked rejection), squared Euclidean
// distance, first nearest mean on ties, at most max_iterations rounds until no assignment changes, sorted
// by area w*h ascending (stable). A cluster left empty (upstream: a NaN mean) restarts at the size farthest
// from every current mean. Throws when sizes is empty or k < 1.
std::vector<std::array<double, 2>> kmeans_anchors(const std::vector<std::array<double, 2>>& sizes, int k,
                                                  int max_iterations = 1000);

// The training targets of one image on a grid_w x grid_h grid: label (num_anchor, grid_h, grid_w), -1 where
// no box; region (num_anchor, grid_h, grid_w, 4). Each box, clipped to the image (skipped when empty),
// goes to the cell of its centre and to the anchor (centred on that cell) of highest IoU; its region is
// (cx - cell_cx) * grid_w + 0.5, (cy - cell_cy) * grid_h + 0.5, log(w * grid_w), log(h * grid_h). A later
// box in the same cell and anchor replaces an earlier one.
struct DetectionTargets {
  int num_anchor = 0, grid_h = 0, grid_w = 0;
  std::vector<int> label;
  std::vector<double> region;
};
DetectionTargets detection_targets(const std::vector<BoxLabel>& boxes,
                                   const std::vector<std::array<double, 2>>& anchors, int grid_w, int grid_h);

// numpy.savetxt of the arrays reshaped to (num_anchor * grid_h, -1): label with '%i', region with '%f',
// comma separated, one '\n' per row.
std::string label_csv_text(const DetectionTargets& targets);
std::string region_csv_text(const DetectionTargets& targets);

}  // namespace nn::formats::datasets
