// `nncli create_object_detection_dataset`: images with YOLO label files beside them to resized PNGs, the
// per-image label/region grid CSVs of nnabla's object detection networks, and the split dataset CSVs.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "command.hpp"
#include "dataset/dataset_tools.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/datasets/detection_labels.hpp"
#include "formats/datasets/image_io.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace fs = std::filesystem;
namespace ds = nn::formats::datasets;

struct CreateObjectDetectionOptions {
  std::string sourcedir, outdir, mode, shuffle;
  int num_class = 0, channel = 0, width = 0, height = 0, num_anchor = 0, grid_size = 0;
  SplitOptions split;  // -f1 X -r1 N -f2 Y -r2 M
};

std::shared_ptr<CreateObjectDetectionOptions> setup_create_object_detection_dataset(CLI::App& command) {
  auto o = std::make_shared<CreateObjectDetectionOptions>();
  add_source_and_outdir_options(
      command, o->sourcedir, o->outdir,
      "Source directory: images (searched recursively) with a label file X.txt beside each X.png");
  command.add_option("-n,--num_class", o->num_class, "Number of object classes")
      ->required()
      ->check(CLI::PositiveNumber);
  add_output_image_options(command, o->channel, o->width, o->height);
  command.add_option("-a,--num_anchor", o->num_anchor, "Number of anchors (k-means clusters of the box sizes)")
      ->required()
      ->check(CLI::PositiveNumber);
  command.add_option("-d,--grid_size", o->grid_size, "Width and height of a detection grid cell, in pixels")
      ->required()
      ->check(CLI::PositiveNumber);
  add_fit_and_shuffle_options(command, o->mode, o->shuffle);
  add_split_options(command, o->split);
  return o;
}

namespace {

// Output images are held whole in memory (several at once, one per thread): 8192 x 8192 at most.
constexpr int64_t kMaxOutputPixels = int64_t(1) << 26;
// Values of one image's region array (num_anchor x grid cells x 4), about 10 bytes each in its CSV.
constexpr int64_t kMaxRegionValues = int64_t(1) << 24;
// A label file larger than this is not a label file.
constexpr uint64_t kMaxLabelFileBytes = uint64_t(64) << 20;

struct Entry {
  std::string rel;   // the image, relative to sourcedir, '/' separated
  std::string stem;  // rel without its extension: the output names
  std::vector<ds::BoxLabel> boxes;
  bool converted = false;
};

// The image files under dir (recursively, sorted by relative path), outside `skip` (the output directory
// when it lies inside the source).
std::vector<std::string> list_images(const fs::path& dir, const fs::path& skip) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory()) {
      if (!skip.empty() && fs::equivalent(it->path(), skip, ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && is_image_name(it->path().filename().string()))
      files.push_back(it->path().lexically_relative(dir).generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The boxes of the label file beside an image (none, with upstream's warning, when there is no file).
std::vector<ds::BoxLabel> read_boxes(const fs::path& label_file, int num_class) {
  if (!fs::exists(label_file)) {
    NN_LOG_WARNING << "Label txt file is not found " << label_file.string() << ".";
    return {};
  }
  std::vector<std::string> skipped;
  std::vector<ds::BoxLabel> boxes =
      ds::parse_box_labels(nn::formats::read_file(label_file.string(), kMaxLabelFileBytes), &skipped);
  for (const std::string& s : skipped) NN_LOG_WARNING << "'" << label_file.string() << "': " << s << ", ignored";
  for (const ds::BoxLabel& b : boxes)
    if (b.label < 0 || b.label >= num_class) {
      NN_LOG_WARNING << "'" << label_file.string() << "': class " << b.label << " is outside 0.." << num_class - 1
                     << " (-n " << num_class << ")";
      break;
    }
  return boxes;
}

std::string format_anchors(const std::vector<std::array<double, 2>>& anchors) {
  std::string text;
  char buf[80];
  for (const auto& a : anchors) {
    std::snprintf(buf, sizeof buf, "%s(%.6f, %.6f)", text.empty() ? "" : " ", a[0], a[1]);
    text += buf;
  }
  return text;
}

void convert_entry(const CreateObjectDetectionOptions& o, const std::vector<std::array<double, 2>>& anchors,
                   const Entry& e) {
  const std::string src = (fs::path(o.sourcedir) / e.rel).string();
  const FittedImage f = load_fitted_image(src, o.width, o.height, o.mode == "padding", o.channel);
  std::vector<ds::BoxLabel> boxes = e.boxes;
  if (f.resized) {
    // The boxes follow the crop or the padding; the resize itself keeps normalised coordinates.
    const double fw = f.fit.width, fh = f.fit.height;
    for (ds::BoxLabel& b : boxes) {
      b.cx = (b.cx * f.source_width + f.fit.x) / fw;
      b.cy = (b.cy * f.source_height + f.fit.y) / fh;
      b.w = b.w * f.source_width / fw;
      b.h = b.h * f.source_height / fh;
    }
  }
  const ds::DetectionTargets t =
      ds::detection_targets(boxes, anchors, o.width / o.grid_size, o.height / o.grid_size);
  const fs::path base = fs::path(o.outdir) / "data" / e.stem;
  fs::create_directories(base.parent_path());
  nn::formats::write_file_atomic(base.string() + "_label.csv", ds::label_csv_text(t));
  nn::formats::write_file_atomic(base.string() + "_region.csv", ds::region_csv_text(t));
  // The image last: a PNG in data/ always has its two CSVs.
  nn::formats::write_file_atomic(base.string() + ".png",
                                 ds::encode_png(f.image.width, f.image.height, f.image.channels, f.image.pixels));
}

}  // namespace

int run_create_object_detection_dataset(const CreateObjectDetectionOptions& options) {
  CreateObjectDetectionOptions o = options;
  resolve_split_options(o.split);
  NN_CHECK(o.width % o.grid_size == 0) << "width " << o.width << " must be divisible by grid_size " << o.grid_size
                                       << " (-w, -d)";
  NN_CHECK(o.height % o.grid_size == 0)
      << "height " << o.height << " must be divisible by grid_size " << o.grid_size << " (-g, -d)";
  NN_CHECK(int64_t(o.width) * o.height <= kMaxOutputPixels)
      << "output size " << o.width << "x" << o.height << " is beyond the limit of " << kMaxOutputPixels
      << " pixels";
  const int64_t grid_w = o.width / o.grid_size, grid_h = o.height / o.grid_size;
  NN_CHECK(int64_t(o.num_anchor) * grid_w * grid_h * 4 <= kMaxRegionValues)
      << o.num_anchor << " anchors on a " << grid_w << "x" << grid_h << " grid make "
      << int64_t(o.num_anchor) * grid_w * grid_h * 4 << " region values per image, beyond the limit of "
      << kMaxRegionValues;
  const std::string src = "'" + o.sourcedir + "': ";
  NN_CHECK(fs::is_directory(o.sourcedir)) << src << "not a directory";
  std::error_code ec;
  NN_CHECK(o.sourcedir != o.outdir && !fs::equivalent(o.sourcedir, o.outdir, ec))
      << src << "Input directory and output directory are same.";

  NN_LOG_INFO << "Creating file list...";
  const fs::path skip = fs::is_directory(o.outdir) ? fs::path(o.outdir) : fs::path();
  std::vector<Entry> entries;
  std::map<std::string, std::string> by_stem;  // output name -> the image that took it
  for (const std::string& rel : list_images(o.sourcedir, skip)) {
    const std::string stem = (fs::path(rel).parent_path() / fs::path(rel).stem()).generic_string();
    const auto [it, fresh] = by_stem.emplace(stem, rel);
    if (!fresh) {
      NN_LOG_WARNING << "'" << (fs::path(o.sourcedir) / rel).string() << "': skipped, '" << it->second
                     << "' has the same output name";
      continue;
    }
    entries.push_back(Entry{rel, stem, {}, false});
  }
  NN_CHECK(!entries.empty()) << src << "no image file (bmp, jpg, jpeg, png, gif, tif, tiff) found";

  NN_LOG_INFO << "Calculating anchors...";
  std::vector<std::array<double, 2>> sizes;
  for (Entry& e : entries) {
    e.boxes = read_boxes(fs::path(o.sourcedir) / (e.stem + ".txt"), o.num_class);
    for (const ds::BoxLabel& b : e.boxes) sizes.push_back({b.w, b.h});
  }
  NN_CHECK(!sizes.empty()) << src << "no label in the .txt files beside the " << entries.size()
                           << " image(s): anchors need at least one box";
  char average[32];
  std::snprintf(average, sizeof average, "%.2f", double(sizes.size()) / double(entries.size()));
  NN_LOG_INFO << sizes.size() << " labels are found in " << entries.size() << " images (" << average
              << " labels/image on average).";
  const std::vector<std::array<double, 2>> anchors = ds::kmeans_anchors(sizes, o.num_anchor);
  NN_LOG_INFO << "Anchors (width, height): " << format_anchors(anchors);

  NN_LOG_INFO << "Creating output images...";
  fs::create_directories(o.outdir);
  const std::vector<std::string> failures = run_on_threads(entries.size(), [&](size_t i) {
    convert_entry(o, anchors, entries[i]);
    entries[i].converted = true;
  });
  std::vector<std::string> rows;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (!e.converted) {
      warn_conversion_failure((fs::path(o.sourcedir) / e.rel).string(), failures[i]);
      continue;
    }
    const std::string base = "./data/" + e.stem;
    rows.push_back(csv_cell(base + ".png") + "," + csv_cell(base + "_label.csv") + "," +
                   csv_cell(base + "_region.csv"));
  }
  NN_CHECK(!rows.empty()) << src << "No image and label file created correctly.";

  NN_LOG_INFO << "Creating CSV files...";
  write_split_csv_files(o.outdir, "x:image,y:label,r:region", std::move(rows), o.split, o.shuffle == "true");
  NN_LOG_INFO << "Dataset was successfully created.";
  return 0;
}

}  // namespace nncli
