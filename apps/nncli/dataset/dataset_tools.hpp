// Shared by the create_*_dataset subcommands: upstream's numbered -f1/-r1/-f2/-r2 options, image file names,
// a source image fitted to the output size, conversion on threads, and the split CSV files.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "command.hpp"
#include "formats/datasets/image_resize.hpp"

namespace nncli {

// -f1 NAME -r1 N -f2 NAME -r2 N (and --file1/--ratio1/--file2/--ratio2). CLI11 reads "-f1 X" as -f "1" and
// a positional X; resolve_split_options pairs them in parse order. ratio1 is accepted and ignored, as upstream.
struct SplitOptions {
  std::string file1, file2;
  int ratio1 = 0, ratio2 = 0;
  std::vector<std::string> f_values, r_values, rest;
  const CLI::App* app = nullptr;
  CLI::Option *f_opt = nullptr, *r_opt = nullptr, *rest_opt = nullptr;
};
void add_split_options(CLI::App& command, SplitOptions& o);
// Both image dataset tools: -i/--sourcedir (an existing directory; the help says what it holds) and
// -o/--outdir, both required.
void add_source_and_outdir_options(CLI::App& command, std::string& sourcedir, std::string& outdir,
                                   const std::string& source_help);
// Both image dataset tools: -c/--channel (1 or 3), -w/--width, -g/--height of the images they write, all required.
void add_output_image_options(CLI::App& command, int& channel, int& width, int& height);
// Both image dataset tools: -m/--mode (trimming or padding) and -s/--shuffle (true or false), required.
void add_fit_and_shuffle_options(CLI::App& command, std::string& mode, std::string& shuffle);
// Throws usage errors (exit 2) for -f3, a missing value, a ratio outside 0..100 or no file1.
void resolve_split_options(SplitOptions& o);

// Whether the extension starts with .bmp .jpg .jpeg .png .gif .tif or .tiff, any case (upstream's search).
bool is_image_name(const std::string& file_name);

// A source image as nnabla's dataset tools prepare it: 8-bit (alpha dropped, 16-bit reduced), cropped
// ("trimming") or zero padded ("padding") to the output aspect ratio and Lanczos resized when its size
// differs, then converted to `channels` (1 or 3).
struct FittedImage {
  nn::formats::datasets::Image8 image;
  int source_width = 0, source_height = 0;
  bool resized = false;                  // false: the source had the output size, fit is unused
  nn::formats::datasets::AspectFit fit;  // the crop or padding, in source pixels
};
FittedImage load_fitted_image(const std::string& path, int width, int height, bool padding, int channels);

// Runs work(i) for every i < n on up to one thread per core. Returns the message of each item's exception
// ("" when it succeeded).
std::vector<std::string> run_on_threads(size_t n, const std::function<void(size_t)>& work);

// Logs "Failed to convert: MESSAGE" (or "Failed to convert 'PATH': MESSAGE" when the message does not name it).
void warn_conversion_failure(const std::string& path, const std::string& message);

// A CSV cell, quoted when needed.
std::string csv_cell(const std::string& s);

// Writes header + rows to outdir/file1 ((100 - ratio2) percent of the rows, rounded down) and outdir/file2
// (the rest), shuffled first when asked; a file with no row is not written. Each file is written atomically.
void write_split_csv_files(const std::string& outdir, const std::string& header, std::vector<std::string> rows,
                           const SplitOptions& split, bool shuffle);

}  // namespace nncli
