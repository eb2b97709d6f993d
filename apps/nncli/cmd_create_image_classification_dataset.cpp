// `nncli create_image_classification_dataset`: class folders of images to resized PNGs + CSV (cli.md §10).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <random>
#include <thread>

#include "command.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/datasets/data_iterator.hpp"
#include "formats/datasets/image_io.hpp"
#include "formats/datasets/image_resize.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace fs = std::filesystem;
namespace ds = nn::formats::datasets;

struct CreateImageClassificationOptions {
  std::string sourcedir, outdir, mode, shuffle, file1, file2;
  int channel = 0, width = 0, height = 0, ratio1 = 0, ratio2 = 0;
  std::vector<std::string> f_values, r_values, rest;  // -f/-r values: "1"/"2" when spelled -f1 X / -r2 X
  CLI::App* app = nullptr;
  CLI::Option *f_opt = nullptr, *r_opt = nullptr, *rest_opt = nullptr;
};

std::shared_ptr<CreateImageClassificationOptions> setup_create_image_classification_dataset(
    CLI::App& command) {
  auto o = std::make_shared<CreateImageClassificationOptions>();
  o->app = &command;
  command.add_option("-i,--sourcedir", o->sourcedir, "Source directory: one sub-directory per class")
      ->required();
  command.add_option("-o,--outdir", o->outdir, "Output directory (not the source directory)")->required();
  command.add_option("-c,--channel", o->channel, "Output channels: 1 or 3")
      ->required()
      ->check(CLI::IsMember({1, 3}));
  command.add_option("-w,--width", o->width, "Output width")->required()->check(CLI::PositiveNumber);
  command.add_option("-g,--height", o->height, "Output height")->required()->check(CLI::PositiveNumber);
  command.add_option("-m,--mode", o->mode, "Aspect ratio fit: trimming or padding")
      ->required()
      ->check(CLI::IsMember({"trimming", "padding"}));
  command.add_option("-s,--shuffle", o->shuffle, "Shuffle the CSV rows: true or false")
      ->required()
      ->check(CLI::IsMember({"true", "false"}));
  command.add_option("--file1", o->file1, "First CSV file name, in outdir (upstream: -f1 NAME)");
  command.add_option("--ratio1", o->ratio1, "Accepted and ignored (upstream: -r1 N)");
  command.add_option("--file2", o->file2, "Second CSV file name (upstream: -f2 NAME)");
  command.add_option("--ratio2", o->ratio2, "Percent of the data for file2 (upstream: -r2 N)")
      ->check(CLI::Range(0, 100));
  o->f_opt = command.add_option("-f", o->f_values, "-f1 NAME / -f2 NAME")->allow_extra_args(false);
  o->r_opt = command.add_option("-r", o->r_values, "-r1 N / -r2 N")->allow_extra_args(false);
  o->rest_opt = command.add_option("values", o->rest)->group("");
  return o;
}

namespace {

// Upstream's "-f1 X" arrives from CLI11 as -f "1" and a positional X: pair them up in parse order.
void resolve_numbered_options(CreateImageClassificationOptions& o) {
  size_t i_f = 0, i_r = 0, i_rest = 0;
  std::string pending;
  for (const CLI::Option* opt : o.app->parse_order()) {
    if (opt == o.f_opt || opt == o.r_opt) {
      const std::string v = (opt == o.f_opt ? o.f_values.at(i_f++) : o.r_values.at(i_r++));
      NN_CHECK_CODE(v == "1" || v == "2", nn::ErrorCode::kUsage)
          << "unknown option '-" << (opt == o.f_opt ? "f" : "r") << v << "' (use -f1, -f2, -r1 or -r2)";
      pending = (opt == o.f_opt ? "f" : "r") + v;
    } else if (opt == o.rest_opt) {
      const std::string& value = o.rest.at(i_rest++);
      NN_CHECK_CODE(!pending.empty(), nn::ErrorCode::kUsage) << "unexpected argument '" << value << "'";
      if (pending == "f1") o.file1 = value;
      if (pending == "f2") o.file2 = value;
      if (pending[0] == 'r') {
        int n = 0;
        try {
          n = std::stoi(value);
        } catch (const std::exception&) {
          NN_FAIL(nn::ErrorCode::kUsage) << "-" << pending << ": '" << value << "' is not an integer";
        }
        NN_CHECK_CODE(n >= 0 && n <= 100, nn::ErrorCode::kUsage) << "-" << pending << " must be 0 to 100";
        (pending == "r1" ? o.ratio1 : o.ratio2) = n;
      }
      pending.clear();
    }
  }
  NN_CHECK_CODE(pending.empty(), nn::ErrorCode::kUsage) << "-" << pending << " needs a value";
  NN_CHECK_CODE(!o.file1.empty(), nn::ErrorCode::kUsage) << "-f1/--file1 is required";
}

bool is_image_name(const fs::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* e : {".bmp", ".jpg", ".jpeg", ".png", ".gif", ".tif", ".tiff"})
    if (ext.rfind(e, 0) == 0) return true;  // upstream searches the extension for the pattern
  return false;
}

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

// The decoded image as 8-bit interleaved pixels; alpha dropped, 16-bit reduced to 8.
ds::Image8 to_image8(const ds::DecodedImage& d) {
  ds::Image8 im{d.width, d.height, d.channels >= 3 ? 3 : 1, {}};
  const size_t plane = size_t(d.width) * d.height;
  im.pixels.resize(plane * im.channels);
  for (size_t i = 0; i < plane; ++i)
    for (int c = 0; c < im.channels; ++c) {
      const uint16_t v = d.pixels[size_t(c) * plane + i];
      im.pixels[i * im.channels + c] = uint8_t(d.bits == 16 ? v >> 8 : v);
    }
  return im;
}

void convert_image(const CreateImageClassificationOptions& o, const Entry& e) {
  const fs::path src = fs::path(o.sourcedir) / e.class_dir / e.file;
  ds::Image8 im = to_image8(ds::read_image(src.string()));
  if (im.width != o.width || im.height != o.height) {
    im = o.mode == "padding" ? ds::pad_to_aspect(im, o.width, o.height)
                             : ds::crop_to_aspect(im, o.width, o.height);
    im = ds::resize_lanczos(im, o.width, o.height);
  }
  im = ds::convert_channels(im, o.channel);
  const fs::path dest_dir = fs::path(o.outdir) / e.class_dir;
  fs::create_directories(dest_dir);
  const fs::path dest = dest_dir / (fs::path(e.file).stem().string() + ".png");
  ds::write_png(dest.string(), im.width, im.height, im.channels, im.pixels);  // atomic
}

// Converts every entry on a few threads; failures are logged and leave converted = false.
void convert_all(const CreateImageClassificationOptions& o, std::vector<Entry>& entries) {
  std::vector<std::string> failures(entries.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < entries.size();) {
      try {
        convert_image(o, entries[i]);
        entries[i].converted = true;
      } catch (const std::exception& ex) {
        failures[i] = ex.what();
      }
    }
  };
  const size_t n = std::min<size_t>(entries.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t t = 1; t < n; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].converted) continue;
    const std::string path = (fs::path(o.sourcedir) / entries[i].class_dir / entries[i].file).string();
    if (failures[i].find(path) != std::string::npos) {
      NN_LOG_WARNING << "Failed to convert: " << failures[i];
    } else {
      NN_LOG_WARNING << "Failed to convert '" << path << "': " << failures[i];
    }
  }
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

int run_create_image_classification_dataset(const CreateImageClassificationOptions& options) {
  CreateImageClassificationOptions o = options;
  resolve_numbered_options(o);
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
  const size_t converted = size_t(std::count_if(entries.begin(), entries.end(), [](const Entry& e) { return e.converted; }));
  NN_CHECK(converted > 0) << src << "none of the " << entries.size() << " images could be converted (see the warnings)";
  std::vector<std::string> rows;
  for (const Entry& e : entries)
    if (e.converted)
      rows.push_back(csv_cell("./" + e.class_dir + "/" + fs::path(e.file).stem().string() + ".png") + "," +
                     std::to_string(e.label));

  NN_LOG_INFO << "Creating CSV files...";
  if (o.shuffle == "true") {
    nn::RandomEngine rng{std::random_device{}()};
    std::vector<std::string> shuffled;
    for (int64_t i : ds::random_permutation(int64_t(rows.size()), rng)) shuffled.push_back(rows[size_t(i)]);
    rows.swap(shuffled);
  }
  const size_t first = rows.size() * size_t(100 - o.ratio2) / 100;
  const std::vector<std::pair<std::string, std::pair<size_t, size_t>>> outputs = {
      {o.file1, {0, first}}, {o.file2, {first, rows.size()}}};
  for (const auto& [name, range] : outputs) {
    if (name.empty() || range.first == range.second) continue;
    std::string text = "x:image,y:label\n";
    for (size_t i = range.first; i < range.second; ++i) text += rows[i] + "\n";
    nn::formats::write_file_atomic((fs::path(o.outdir) / name).string(), text);
    NN_LOG_VERBOSE << "wrote " << (fs::path(o.outdir) / name).string() << " (" << range.second - range.first
                   << " rows)";
  }
  if (converted < entries.size()) {
    NN_LOG_WARNING << entries.size() - converted << " of " << entries.size()
                   << " images could not be converted and are not in the dataset";
  }
  NN_LOG_INFO << "Dataset was successfully created.";
  return 0;
}

}  // namespace nncli
