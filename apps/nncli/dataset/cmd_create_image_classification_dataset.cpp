// `nncli create_image_classification_dataset`: class folders of images to resized PNGs + CSV
// (docs/command_line.md#dataset-tools).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>

#include "command.hpp"
#include "dataset/dataset_tools.hpp"
#include "formats/datasets/image_io.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace fs = std::filesystem;
namespace ds = nn::formats::datasets;

struct CreateImageClassificationOptions {
  std::string sourcedir, outdir, mode, shuffle;
  int channel = 0, width = 0, height = 0;
  SplitOptions split;  // -f1 X -r1 N -f2 Y -r2 M
};

std::shared_ptr<CreateImageClassificationOptions> setup_create_image_classification_dataset(CLI::App& command) {
  auto o = std::make_shared<CreateImageClassificationOptions>();
  add_source_and_outdir_options(command, o->sourcedir, o->outdir, "Source directory: one sub-directory per class");
  add_output_image_options(command, o->channel, o->width, o->height);
  add_fit_and_shuffle_options(command, o->mode, o->shuffle);
  add_split_options(command, o->split);
  return o;
}

namespace {

std::vector<std::string> sorted_names(const fs::path& dir, bool directories) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (directories ? e.is_directory() : e.is_regular_file()) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

struct Entry {
  std::string class_dir, file;
  int label = 0;
  bool converted = false;
};

void convert_image(const CreateImageClassificationOptions& o, const Entry& e) {
  const fs::path src = fs::path(o.sourcedir) / e.class_dir / e.file;
  const ds::Image8 im = load_fitted_image(src.string(), o.width, o.height, o.mode == "padding", o.channel).image;
  const fs::path dest_dir = fs::path(o.outdir) / e.class_dir;
  fs::create_directories(dest_dir);
  const fs::path dest = dest_dir / (fs::path(e.file).stem().string() + ".png");
  ds::write_png(dest.string(), im.width, im.height, im.channels, im.pixels);  // atomic
}

// Converts every entry on a few threads; failures are logged and leave converted = false.
void convert_all(const CreateImageClassificationOptions& o, std::vector<Entry>& entries) {
  const std::vector<std::string> failures = run_on_threads(entries.size(), [&](size_t i) {
    convert_image(o, entries[i]);
    entries[i].converted = true;
  });
  for (size_t i = 0; i < entries.size(); ++i)
    if (!entries[i].converted)
      warn_conversion_failure((fs::path(o.sourcedir) / entries[i].class_dir / entries[i].file).string(),
                              failures[i]);
}

}  // namespace

int run_create_image_classification_dataset(const CreateImageClassificationOptions& options) {
  CreateImageClassificationOptions o = options;
  resolve_split_options(o.split);
  const std::string src = "'" + o.sourcedir + "': ";
  NN_CHECK(fs::is_directory(o.sourcedir)) << src << "not a directory";
  std::error_code ec;
  NN_CHECK(o.sourcedir != o.outdir && !fs::equivalent(o.sourcedir, o.outdir, ec))
      << src << "Input directory and output directory are same.";
  NN_CHECK_CODE(int64_t(o.width) * o.height <= ds::kMaxImagePixels, nn::ErrorCode::kUsage)
      << "-w " << o.width << " -g " << o.height << ": " << int64_t(o.width) * o.height
      << " pixels per image is more than the limit of " << ds::kMaxImagePixels;

  NN_LOG_INFO << "Creating file list...";
  const std::vector<std::string> dirs = sorted_names(o.sourcedir, true);
  NN_CHECK(!dirs.empty()) << src << "no sub-directory (one per class) found";
  std::vector<Entry> entries;
  int labels = 0;
  for (const std::string& dir : dirs) {
    bool found = false;
    for (const std::string& file : sorted_names(fs::path(o.sourcedir) / dir, false)) {
      if (!is_image_name(file)) continue;
      entries.push_back(Entry{dir, file, labels, false});
      found = true;
    }
    if (found) ++labels;
  }
  NN_CHECK(!entries.empty()) << src
                             << "no image file (bmp, jpg, jpeg, png, gif, tif, tiff) in its sub-directories";

  NN_LOG_INFO << "Creating output images...";
  fs::create_directories(o.outdir);
  convert_all(o, entries);
  const size_t converted =
      size_t(std::count_if(entries.begin(), entries.end(), [](const Entry& e) { return e.converted; }));
  NN_CHECK(converted > 0) << src << "none of the " << entries.size()
                          << " images could be converted (see the warnings)";
  std::vector<std::string> rows;
  for (const Entry& e : entries)
    if (e.converted)
      rows.push_back(csv_cell("./" + e.class_dir + "/" + fs::path(e.file).stem().string() + ".png") + "," +
                     std::to_string(e.label));

  NN_LOG_INFO << "Creating CSV files...";
  write_split_csv_files(o.outdir, "x:image,y:label", std::move(rows), o.split, o.shuffle == "true");
  if (converted < entries.size()) {
    NN_LOG_WARNING << entries.size() - converted << " of " << entries.size()
                   << " images could not be converted and are not in the dataset";
  }
  NN_LOG_INFO << "Dataset was successfully created.";
  return 0;
}

}  // namespace nncli
