// Detection labels of create_object_detection_dataset: label file parsing, numpy's seed-0 draw, k-means
// anchors and the grid targets, on values worked out by hand.
#include "formats/datasets/detection_labels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ds = nn::formats::datasets;

TEST(DetectionLabels, NumpyRandintSeedZero) {
  // np.random.seed(0); np.random.randint(10, size=5) and np.random.randint(2, size=10) in a fresh process.
  EXPECT_EQ(ds::numpy_randint(10, 5, 0), (std::vector<int>{5, 0, 3, 3, 7}));
  EXPECT_EQ(ds::numpy_randint(2, 10, 0), (std::vector<int>{0, 1, 1, 0, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(ds::numpy_randint(1, 3, 0), (std::vector<int>{0, 0, 0}));  // no draw
}

TEST(DetectionLabels, KmeansTwoClusters) {
  // Initial clusters [0,1,1,0,1,1] (means (0.3,0.35) and (0.31,0.36)); one round moves the three small boxes
  // to cluster 0, the next changes nothing. Sorted by area: the small mean first.
  const std::vector<std::array<double, 2>> sizes = {{0.1, 0.1}, {0.12, 0.1}, {0.1, 0.12},
                                                    {0.5, 0.6}, {0.52, 0.6}, {0.5, 0.62}};
  const auto anchors = ds::kmeans_anchors(sizes, 2);
  ASSERT_EQ(anchors.size(), 2u);
  EXPECT_NEAR(anchors[0][0], 0.32 / 3, 1e-12);
  EXPECT_NEAR(anchors[0][1], 0.32 / 3, 1e-12);
  EXPECT_NEAR(anchors[1][0], 1.52 / 3, 1e-12);
  EXPECT_NEAR(anchors[1][1], 1.82 / 3, 1e-12);
  // The same data, larger boxes listed first: the same clusters.
  const std::vector<std::array<double, 2>> swapped = {{0.5, 0.6}, {0.52, 0.6}, {0.5, 0.62},
                                                      {0.1, 0.1}, {0.12, 0.1}, {0.1, 0.12}};
  const auto again = ds::kmeans_anchors(swapped, 2);
  EXPECT_NEAR(again[0][0], 0.32 / 3, 1e-12);
  EXPECT_NEAR(again[1][1], 1.82 / 3, 1e-12);
}

TEST(DetectionLabels, KmeansEmptyClusterNeverNaN) {
  // Fewer boxes than anchors: upstream's empty clusters give NaN means; here they restart on a box.
  const auto one = ds::kmeans_anchors({{0.2, 0.4}}, 3);
  ASSERT_EQ(one.size(), 3u);
  for (const auto& a : one) {
    EXPECT_DOUBLE_EQ(a[0], 0.2);
    EXPECT_DOUBLE_EQ(a[1], 0.4);
  }
  const auto two = ds::kmeans_anchors({{0.1, 0.1}, {0.5, 0.5}, {0.1, 0.1}}, 3);
  for (const auto& a : two) EXPECT_TRUE(std::isfinite(a[0]) && std::isfinite(a[1]));
  EXPECT_DOUBLE_EQ(two.front()[0], 0.1);
  EXPECT_DOUBLE_EQ(two.back()[0], 0.5);
  EXPECT_THROW(ds::kmeans_anchors({}, 2), std::exception);
}

TEST(DetectionLabels, ParseBoxLabels) {
  std::vector<std::string> skipped;
  const auto boxes = ds::parse_box_labels(
      "1 0.3 0.6 0.25 0.5\r\n\n2 3\n0\t0.5 +0.5 1e-1 0.2\nx 1 2 3 4\n1 nan 0 0 0\n-1.7 0.1 0.1 0.1 0.1", &skipped);
  ASSERT_EQ(boxes.size(), 3u);
  EXPECT_EQ(boxes[0].label, 1);
  EXPECT_DOUBLE_EQ(boxes[0].h, 0.5);
  EXPECT_EQ(boxes[1].label, 0);
  EXPECT_DOUBLE_EQ(boxes[1].cy, 0.5);
  EXPECT_DOUBLE_EQ(boxes[1].w, 0.1);
  EXPECT_EQ(boxes[2].label, -1);  // int() truncates toward zero
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0], "line 5: 'x 1 2 3 4' is not 5 numbers");
  EXPECT_EQ(skipped[1], "line 6: '1 nan 0 0 0' is not 5 numbers");
}

TEST(DetectionLabels, TargetsOfOneBox) {
  // Box (0.3, 0.6, 0.25, 0.5) on a 4x4 grid: cell (1, 2); IoU 0.498 with the 0.25x0.5 anchor, 0.429 with
  // the 0.5x0.375 one.
  const std::vector<std::array<double, 2>> anchors = {{0.25, 0.5}, {0.5, 0.375}};
  const auto t = ds::detection_targets({{7, 0.3, 0.6, 0.25, 0.5}}, anchors, 4, 4);
  ASSERT_EQ(t.label.size(), 2u * 4 * 4);
  for (size_t i = 0; i < t.label.size(); ++i) EXPECT_EQ(t.label[i], i == 2 * 4 + 1 ? 7 : -1) << i;
  const double* r = &t.region[(2 * 4 + 1) * 4];
  EXPECT_NEAR(r[0], 0.2, 1e-12);
  EXPECT_NEAR(r[1], 0.4, 1e-12);
  EXPECT_NEAR(r[2], 0.0, 1e-12);
  EXPECT_NEAR(r[3], std::log(2.0), 1e-12);
  const std::string label = ds::label_csv_text(t);
  EXPECT_EQ(label.substr(0, 35), "-1,-1,-1,-1\n-1,-1,-1,-1\n-1,7,-1,-1\n");
  const std::string region = ds::region_csv_text(t);
  EXPECT_NE(region.find("\n0.000000,0.000000,0.000000,0.000000,0.200000,0.400000,0.000000,0.693147,0.000000,"),
            std::string::npos);
  EXPECT_EQ(std::count(region.begin(), region.end(), '\n'), 8);
}

TEST(DetectionLabels, TargetsClipAndSkip) {
  const std::vector<std::array<double, 2>> anchors = {{0.5, 0.5}};
  // Half outside on the right: clipped to [0.75, 1] x [0.25, 0.75], centre (0.875, 0.5) -> cell (1, 1).
  // Empty after clipping, or of zero width: skipped.
  const auto t = ds::detection_targets({{3, 1.0, 0.5, 0.5, 0.5}, {4, 1.5, 0.5, 0.2, 0.2}, {5, 0.5, 0.5, 0.0, 0.3}},
                                       anchors, 2, 2);
  EXPECT_EQ(t.label, (std::vector<int>{-1, -1, -1, 3}));
  const double* r = &t.region[3 * 4];
  EXPECT_NEAR(r[0], (0.875 - 0.75) * 2 + 0.5, 1e-12);
  EXPECT_NEAR(r[1], (0.5 - 0.75) * 2 + 0.5, 1e-12);
  EXPECT_NEAR(r[2], std::log(0.25 * 2), 1e-12);
  EXPECT_NEAR(r[3], std::log(0.5 * 2), 1e-12);
}
