// Helpers of the create_*_dataset subcommands (dataset_tools.hpp).
#include "dataset/dataset_tools.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <random>
#include <thread>

#include "common/command_options.hpp"
#include "formats/common/atomic_file.hpp"
#include "formats/datasets/data_iterator.hpp"
#include "formats/datasets/image_io.hpp"
#include "common/input_file_check.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace fs = std::filesystem;
namespace ds = nn::formats::datasets;

void add_split_options(CLI::App& command, SplitOptions& o) {
  o.app = &command;
  command.add_option("--file1", o.file1, "First CSV file name, in outdir (upstream: -f1 NAME)");
  command.add_option("--ratio1", o.ratio1, "Accepted and ignored (upstream: -r1 N)");
  command.add_option("--file2", o.file2, "Second CSV file name (upstream: -f2 NAME)");
  command.add_option("--ratio2", o.ratio2, "Percent of the data for file2 (upstream: -r2 N)")
      ->check(CLI::Range(0, 100));
  o.f_opt = command.add_option("-f", o.f_values, "-f1 NAME / -f2 NAME")->allow_extra_args(false);
  o.r_opt = command.add_option("-r", o.r_values, "-r1 N / -r2 N")->allow_extra_args(false);
  o.rest_opt = command.add_option("values", o.rest)->group("");
}

void add_source_and_outdir_options(CLI::App& command, std::string& sourcedir, std::string& outdir,
                                   const std::string& source_help) {
  command.add_option("-i,--sourcedir", sourcedir, source_help)->required()->check(existing_input());
  add_outdir_option(command, outdir, "Output directory (not the source directory)");
}

void add_output_image_options(CLI::App& command, int& channel, int& width, int& height) {
  command.add_option("-c,--channel", channel, "Output channels: 1 or 3")->required()->check(CLI::IsMember({1, 3}));
  command.add_option("-w,--width", width, "Output width")->required()->check(CLI::PositiveNumber);
  command.add_option("-g,--height", height, "Output height")->required()->check(CLI::PositiveNumber);
}

void add_fit_and_shuffle_options(CLI::App& command, std::string& mode, std::string& shuffle) {
  command.add_option("-m,--mode", mode, "Aspect ratio fit: trimming or padding")
      ->required()
      ->check(CLI::IsMember({"trimming", "padding"}));
  command.add_option("-s,--shuffle", shuffle, "Shuffle the CSV rows: true or false")
      ->required()
      ->check(CLI::IsMember({"true", "false"}));
}

void resolve_split_options(SplitOptions& o) {
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

bool is_image_name(const std::string& file_name) {
  std::string ext = fs::path(file_name).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* e : {".bmp", ".jpg", ".jpeg", ".png", ".gif", ".tif", ".tiff"})
    if (ext.rfind(e, 0) == 0) return true;  // upstream searches the extension for the pattern
  return false;
}

namespace {

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

}  // namespace

FittedImage load_fitted_image(const std::string& path, int width, int height, bool padding, int channels) {
  FittedImage f;
  f.image = to_image8(ds::read_image(path));
  f.source_width = f.image.width;
  f.source_height = f.image.height;
  if (f.image.width != width || f.image.height != height) {
    f.resized = true;
    if (padding) {
      f.fit = ds::pad_fit(f.image.width, f.image.height, width, height);
      f.image = ds::pad_to_aspect(f.image, width, height);
    } else {
      f.fit = ds::crop_fit(f.image.width, f.image.height, width, height);
      f.image = ds::crop_to_aspect(f.image, width, height);
    }
    f.image = ds::resize_lanczos(f.image, width, height);
  }
  f.image = ds::convert_channels(f.image, channels);
  return f;
}

std::vector<std::string> run_on_threads(size_t n, const std::function<void(size_t)>& work) {
  std::vector<std::string> failures(n);
  std::atomic<size_t> next{0};
  auto loop = [&] {
    for (size_t i; (i = next++) < n;) {
      try {
        work(i);
      } catch (const std::exception& ex) {
        failures[i] = ex.what();
        if (failures[i].empty()) failures[i] = "failed";
      }
    }
  };
  const size_t threads_wanted = std::min<size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t t = 1; t < threads_wanted; ++t) threads.emplace_back(loop);
  loop();
  for (auto& t : threads) t.join();
  return failures;
}

void warn_conversion_failure(const std::string& path, const std::string& message) {
  if (message.find(path) != std::string::npos) {
    NN_LOG_WARNING << "Failed to convert: " << message;
  } else {
    NN_LOG_WARNING << "Failed to convert '" << path << "': " << message;
  }
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void write_split_csv_files(const std::string& outdir, const std::string& header, std::vector<std::string> rows,
                           const SplitOptions& split, bool shuffle) {
  if (shuffle) {
    nn::RandomEngine rng{std::random_device{}()};
    std::vector<std::string> shuffled;
    for (int64_t i : ds::random_permutation(int64_t(rows.size()), rng)) shuffled.push_back(rows[size_t(i)]);
    rows.swap(shuffled);
  }
  const size_t first = rows.size() * size_t(100 - split.ratio2) / 100;
  const std::vector<std::pair<std::string, std::pair<size_t, size_t>>> outputs = {
      {split.file1, {0, first}}, {split.file2, {first, rows.size()}}};
  for (const auto& [name, range] : outputs) {
    if (name.empty() || range.first == range.second) continue;
    std::string text = header + "\n";
    for (size_t i = range.first; i < range.second; ++i) text += rows[i] + "\n";
    const std::string path = (fs::path(outdir) / name).string();
    nn::formats::write_file_atomic(path, text);
    NN_LOG_VERBOSE << "wrote " << path << " (" << range.second - range.first << " rows)";
  }
}

}  // namespace nncli
