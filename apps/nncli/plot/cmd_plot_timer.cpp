// `nncli plot_timer`: MonitorTimeElapsed files (*.timer.txt) as a line plot of time per iteration or total.
#include <CLI/CLI.hpp>

#include "command.hpp"
#include "nn/core/error.hpp"
#include "plot/plot_figure.hpp"

namespace nncli {

struct PlotTimerOptions : PlotCommonOptions {
  bool elapsed = false;
  std::string time_unit = "s";
};

std::shared_ptr<PlotTimerOptions> setup_plot_timer(CLI::App& command) {
  auto o = std::make_shared<PlotTimerOptions>();
  command.description("Plot *.timer.txt files produced by nnabla.MonitorTimeElapsed.");
  add_plot_common_options(command, *o);
  command.add_flag("-e,--elapsed", o->elapsed, "Plot the total elapsed time instead of the time per iteration");
  command.add_option("-u,--time-unit", o->time_unit, "Time unit: s, m, h or d")
      ->check(CLI::IsMember({"s", "m", "h", "d"}))
      ->capture_default_str();
  return o;
}

int run_plot_timer(const PlotTimerOptions& options) {
  struct Unit {
    const char* key;
    const char* word;
    double seconds;
  };
  static const Unit kUnits[] = {
      {"s", "seconds", 1}, {"m", "minutes", 60}, {"h", "hours", 3600}, {"d", "days", 86400}};
  const Unit* unit = &kUnits[0];
  for (const auto& u : kUnits)
    if (options.time_unit == u.key) unit = &u;
  std::vector<PlotSeries> series;
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    NN_CHECK(!is_monitoring_report(options.inputs[i]))
        << "'" << options.inputs[i] << "': a monitoring report holds no timings (use plot_series)";
    series.push_back(read_timer_file(options.inputs[i], options.elapsed, unit->seconds));
    series.back().label = plot_input_label(options, i);
  }
  FigureText text{options.title, options.xlabel, options.ylabel};
  if (text.ylabel.empty())
    text.ylabel = options.elapsed ? std::string("Total elapsed time [") + unit->word + "]"
                                  : std::string("Elapsed time [") + unit->word + "/iter]";
  save_plot(series, options, text);
  return 0;
}

}  // namespace nncli
