// Inputs of plot_series/plot_timer: nnabla monitor files (*.series.txt, *.timer.txt) and train's
// monitoring_report.yml, read into (x, y) series.
#pragma once
#include <string>
#include <vector>

namespace nncli {

struct PlotSeries {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
};

// '<index> <value>' lines (MonitorSeries); values are float32 as upstream reads them.
PlotSeries read_series_file(const std::string& path);

// '<index> <since previous flush> <iterations since previous flush> <since start>' lines
// (MonitorTimeElapsed): column 3 when total, else column 1, divided by the unit's seconds.
PlotSeries read_timer_file(const std::string& path, bool total, double unit_seconds);

// Whether the file is a train monitoring report (extension .yml/.yaml).
bool is_monitoring_report(const std::string& path);
// One series per key of the report ('cost', 'train_error', ...), x = epoch; labels are the keys.
std::vector<PlotSeries> read_monitoring_report(const std::string& path);

}  // namespace nncli
