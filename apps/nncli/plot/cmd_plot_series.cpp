// `nncli plot_series`: MonitorSeries files (*.series.txt) or train's monitoring_report.yml as a line plot.
#include <CLI/CLI.hpp>

#include "command.hpp"
#include "plot/plot_figure.hpp"

namespace nncli {

struct PlotSeriesOptions : PlotCommonOptions {};

std::shared_ptr<PlotSeriesOptions> setup_plot_series(CLI::App& command) {
  auto o = std::make_shared<PlotSeriesOptions>();
  command.description(
      "Plot *.series.txt files produced by nnabla.MonitorSeries (or the keys of a monitoring_report.yml "
      "written by train, one line per key over epochs).");
  add_plot_common_options(command, *o);
  return o;
}

int run_plot_series(const PlotSeriesOptions& options) {
  std::vector<PlotSeries> series;
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    const std::string& input = options.inputs[i];
    if (!is_monitoring_report(input)) {
      series.push_back(read_series_file(input));
      series.back().label = plot_input_label(options, i);
      continue;
    }
    // One line per key; with several inputs the keys are prefixed by the input's label.
    for (auto& s : read_monitoring_report(input)) {
      if (options.inputs.size() > 1 || i < options.labels.size())
        s.label = plot_input_label(options, i) + " " + s.label;
      series.push_back(std::move(s));
    }
  }
  FigureText text{options.title, options.xlabel, options.ylabel};
  save_plot(series, options, text);
  return 0;
}

}  // namespace nncli
