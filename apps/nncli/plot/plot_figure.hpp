// The figure plot_series/plot_timer draw (lines, legend at the best corner, labels, limits), written to
// PNG, SVG or PDF through PLplot's cairo drivers; plus the options the two commands share.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "plot/plot_data.hpp"

namespace CLI {
class App;
}

namespace nncli {

// Upstream's plot options (docs/command_line.md#plot-tools).
struct PlotCommonOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> labels;
  std::string outfile;
  std::string xlabel;
  std::string ylabel;
  std::string title;
  std::optional<double> ylim_max, ylim_min, xlim_max, xlim_min;
};

void add_plot_common_options(CLI::App& command, PlotCommonOptions& options);

// Label of input i: -l's i-th value, else the file name as given.
std::string plot_input_label(const PlotCommonOptions& options, size_t i);

struct FigureText {
  std::string title, xlabel, ylabel;
};

// Draws the series (matplotlib's color cycle, 5% margins, limits overridden by the options) into
// options.outfile, whose extension (.png .svg .pdf) picks the format; written atomically.
void save_plot(const std::vector<PlotSeries>& series, const PlotCommonOptions& options, const FigureText& text);

}  // namespace nncli
