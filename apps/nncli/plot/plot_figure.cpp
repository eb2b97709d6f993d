// plot_series/plot_timer's figure through PLplot (pngcairo/svgcairo/pdfcairo drivers).
#include "plot/plot_figure.hpp"

#include "common/input_file_check.hpp"

#include <plplot/plplot.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "formats/common/atomic_file.hpp"
#include "formats/common/file_format.hpp"
#include "nn/core/error.hpp"
#include "nn/core/lazy_library.hpp"

// PLplot (with FreeType and its drivers) is opened when a plot is drawn.
namespace nncli {
namespace {
struct PlplotApi {
  decltype(&c_pladv) f_pladv;
  decltype(&c_plbox) f_plbox;
  decltype(&c_plend) f_plend;
  decltype(&c_plinit) f_plinit;
  decltype(&c_pllab) f_pllab;
  decltype(&c_pllegend) f_pllegend;
  decltype(&c_plline) f_plline;
  decltype(&c_plschr) f_plschr;
  decltype(&c_plsdev) f_plsdev;
  decltype(&c_plsfnam) f_plsfnam;
  decltype(&c_plspage) f_plspage;
  decltype(&c_plvpor) f_plvpor;
  decltype(&c_plwidth) f_plwidth;
  decltype(&c_plwind) f_plwind;
  decltype(&c_plcol0) f_plcol0;
  decltype(&c_plscmap0n) f_plscmap0n;
  decltype(&c_plscol0) f_plscol0;
  decltype(&plgDevs) f_plgDevs;
};
const PlplotApi& plplot_api() {
  static const PlplotApi api = [] {
    void* lib = nn::open_lazy_library({NNCLI_PLPLOT_LIBRARY, "libplplot.so.17"}, "PLplot", RTLD_GLOBAL);
    PlplotApi a{};
    nn::lazy_symbol(lib, "c_pladv", a.f_pladv);
    nn::lazy_symbol(lib, "c_plbox", a.f_plbox);
    nn::lazy_symbol(lib, "c_plend", a.f_plend);
    nn::lazy_symbol(lib, "c_plinit", a.f_plinit);
    nn::lazy_symbol(lib, "c_pllab", a.f_pllab);
    nn::lazy_symbol(lib, "c_pllegend", a.f_pllegend);
    nn::lazy_symbol(lib, "c_plline", a.f_plline);
    nn::lazy_symbol(lib, "c_plschr", a.f_plschr);
    nn::lazy_symbol(lib, "c_plsdev", a.f_plsdev);
    nn::lazy_symbol(lib, "c_plsfnam", a.f_plsfnam);
    nn::lazy_symbol(lib, "c_plspage", a.f_plspage);
    nn::lazy_symbol(lib, "c_plvpor", a.f_plvpor);
    nn::lazy_symbol(lib, "c_plwidth", a.f_plwidth);
    nn::lazy_symbol(lib, "c_plwind", a.f_plwind);
    nn::lazy_symbol(lib, "c_plcol0", a.f_plcol0);
    nn::lazy_symbol(lib, "c_plscmap0n", a.f_plscmap0n);
    nn::lazy_symbol(lib, "c_plscol0", a.f_plscol0);
    nn::lazy_symbol(lib, "plgDevs", a.f_plgDevs);
    return a;
  }();
  return api;
}
}  // namespace
}  // namespace nncli
#undef pladv
#define pladv nncli::plplot_api().f_pladv
#undef plbox
#define plbox nncli::plplot_api().f_plbox
#undef plend
#define plend nncli::plplot_api().f_plend
#undef plinit
#define plinit nncli::plplot_api().f_plinit
#undef pllab
#define pllab nncli::plplot_api().f_pllab
#undef pllegend
#define pllegend nncli::plplot_api().f_pllegend
#undef plline
#define plline nncli::plplot_api().f_plline
#undef plschr
#define plschr nncli::plplot_api().f_plschr
#undef plsdev
#define plsdev nncli::plplot_api().f_plsdev
#undef plsfnam
#define plsfnam nncli::plplot_api().f_plsfnam
#undef plspage
#define plspage nncli::plplot_api().f_plspage
#undef plvpor
#define plvpor nncli::plplot_api().f_plvpor
#undef plwidth
#define plwidth nncli::plplot_api().f_plwidth
#undef plwind
#define plwind nncli::plplot_api().f_plwind
#undef plcol0
#define plcol0 nncli::plplot_api().f_plcol0
#undef plscmap0n
#define plscmap0n nncli::plplot_api().f_plscmap0n
#undef plscol0
#define plscol0 nncli::plplot_api().f_plscol0
#define plgDevs nncli::plplot_api().f_plgDevs

namespace nncli {

namespace {

// cmap0 slots: 0 background, 1..10 matplotlib's tab10 cycle, then axes, grid and legend frame.
constexpr int kAxisColor = 11, kGridColor = 12, kFrameColor = 13;
constexpr std::array<std::array<int, 3>, 10> kCycle = {{{31, 119, 180},
                                                        {255, 127, 14},
                                                        {44, 160, 44},
                                                        {214, 39, 40},
                                                        {148, 103, 189},
                                                        {140, 86, 75},
                                                        {227, 119, 194},
                                                        {127, 127, 127},
                                                        {188, 189, 34},
                                                        {23, 190, 207}}};

// PLplot treats '#' as its escape character.
std::string plplot_text(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '#' ? std::string("##") : std::string(1, c);
  return out;
}

const char* device_for(const std::string& path) {
  const std::string ext = nn::formats::file_extension(path);
  if (ext == "png") return "pngcairo";
  if (ext == "svg") return "svgcairo";
  if (ext == "pdf") return "pdfcairo";
  return nullptr;
}

bool device_available(const char* device) {
  constexpr int kMaxDevices = 128;
  const char* menu_storage[kMaxDevices];
  const char* name_storage[kMaxDevices];
  const char** menus = menu_storage;
  const char** names = name_storage;
  int count = kMaxDevices;
  plgDevs(&menus, &names, &count);
  for (int i = 0; i < count; ++i)
    if (std::string(names[i]) == device) return true;
  return false;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  // matplotlib's default 5% margins; a flat or empty range gets a unit-wide window.
  void pad() {
    if (!(lo <= hi)) lo = 0.0, hi = 1.0;
    const double span = hi - lo;
    const double margin = span > 0 ? span * 0.05 : std::max(std::abs(lo) * 0.05, 0.5);
    lo -= margin, hi += margin;
  }
};

// Legend placement like matplotlib's loc='best': the candidate box covering the fewest data points.
struct LegendSpot {
  PLINT position;
  double x0, y0;  // lower-left corner in axes fractions
};

PLINT best_legend_position(const std::vector<PlotSeries>& series, const Range& xr, const Range& yr, double width,
                           double height) {
  const double m = 0.03;
  const std::array<LegendSpot, 9> spots = {{
      {PL_POSITION_TOP | PL_POSITION_RIGHT, 1 - m - width, 1 - m - height},
      {PL_POSITION_TOP | PL_POSITION_LEFT, m, 1 - m - height},
      {PL_POSITION_BOTTOM | PL_POSITION_LEFT, m, m},
      {PL_POSITION_BOTTOM | PL_POSITION_RIGHT, 1 - m - width, m},
      {PL_POSITION_RIGHT, 1 - m - width, 0.5 - height / 2},
      {PL_POSITION_LEFT, m, 0.5 - height / 2},
      {PL_POSITION_BOTTOM, 0.5 - width / 2, m},
      {PL_POSITION_TOP, 0.5 - width / 2, 1 - m - height},
      {0, 0.5 - width / 2, 0.5 - height / 2},
  }};
  size_t best = 0, best_count = std::numeric_limits<size_t>::max();
  for (size_t s = 0; s < spots.size(); ++s) {
    size_t count = 0;
    for (const auto& line : series)
      for (size_t i = 0; i < line.x.size(); ++i) {
        const double fx = (line.x[i] - xr.lo) / (xr.hi - xr.lo), fy = (line.y[i] - yr.lo) / (yr.hi - yr.lo);
        count += fx >= spots[s].x0 && fx <= spots[s].x0 + width && fy >= spots[s].y0 && fy <= spots[s].y0 + height;
      }
    if (count < best_count) best = s, best_count = count;
  }
  return spots[best].position | PL_POSITION_INSIDE;
}

// Ends the PLplot session however the drawing leaves.
struct PlplotSession {
  ~PlplotSession() { plend(); }
};

void draw_legend(const std::vector<PlotSeries>& series, const Range& xr, const Range& yr) {
  const size_t n = series.size();
  size_t longest = 1;
  for (const auto& s : series) longest = std::max(longest, s.label.size());
  const double width = std::min(0.9, 0.1 + 0.0145 * double(longest)), height = 0.02 + 0.068 * double(n);
  std::vector<std::string> texts;
  for (const auto& s : series) texts.push_back(plplot_text(s.label));
  std::vector<const char*> text_ptrs;
  for (const auto& t : texts) text_ptrs.push_back(t.c_str());
  std::vector<PLINT> opts(n, PL_LEGEND_LINE), text_colors(n, kAxisColor), line_colors(n), line_styles(n, 1);
  std::vector<PLFLT> line_widths(n, 2.0);
  for (size_t i = 0; i < n; ++i) line_colors[i] = PLINT(1 + i % kCycle.size());
  PLFLT legend_width = 0, legend_height = 0;
  pllegend(&legend_width, &legend_height, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
           best_legend_position(series, xr, yr, width, height), 0.02, 0.03, 0.08, 0, kFrameColor, 1, 0, 0,
           PLINT(n), opts.data(), 1.0, 0.85, 2.0, 0.0, text_colors.data(), text_ptrs.data(), nullptr, nullptr,
           nullptr, nullptr, line_colors.data(), line_styles.data(), line_widths.data(), nullptr, nullptr, nullptr,
           nullptr);
}

}  // namespace

void add_plot_common_options(CLI::App& command, PlotCommonOptions& o) {
  command.add_option("inputs", o.inputs, "Path to input file(s)")->required()->check(existing_input());
  command.add_option("-l,--label", o.labels, "Label of each plot (repeatable, in input order)");
  command.add_option("-o,--outfile", o.outfile, "Path to output file (.png, .svg or .pdf)");
  command.add_option("-x,--xlabel", o.xlabel, "X-axis label of plot");
  command.add_option("-y,--ylabel", o.ylabel, "Y-axis label of plot");
  command.add_option("-t,--title", o.title, "Title of plot");
  command.add_option("-T,--ylim-max", o.ylim_max, "Y-axis plot range max");
  command.add_option("-B,--ylim-min", o.ylim_min, "Y-axis plot range min");
  command.add_option("-R,--xlim-max", o.xlim_max, "X-axis plot range max");
  command.add_option("-L,--xlim-min", o.xlim_min, "X-axis plot range min");
}

std::string plot_input_label(const PlotCommonOptions& options, size_t i) {
  return i < options.labels.size() ? options.labels[i] : options.inputs[i];
}

void save_plot(const std::vector<PlotSeries>& series, const PlotCommonOptions& options, const FigureText& text) {
  NN_CHECK_CODE(!options.outfile.empty(), nn::ErrorCode::kUsage)
      << "no -o/--outfile: nncli cannot show a window; name a .png, .svg or .pdf file";
  const char* device = device_for(options.outfile);
  NN_CHECK_CODE(device, nn::ErrorCode::kUsage)
      << "'" << options.outfile << "': unsupported output format (use .png, .svg or .pdf)";
  NN_CHECK(device_available(device)) << "PLplot has no '" << device << "' driver (install plplot-driver-cairo)";

  Range xr, yr;
  for (const auto& s : series) {
    for (double v : s.x) xr.add(v);
    for (double v : s.y) yr.add(v);
  }
  xr.pad(), yr.pad();
  if (options.xlim_min) xr.lo = *options.xlim_min;
  if (options.xlim_max) xr.hi = *options.xlim_max;
  if (options.ylim_min) yr.lo = *options.ylim_min;
  if (options.ylim_max) yr.hi = *options.ylim_max;
  NN_CHECK_CODE(xr.lo < xr.hi && yr.lo < yr.hi, nn::ErrorCode::kUsage)
      << "empty plot range: x [" << xr.lo << ", " << xr.hi << "], y [" << yr.lo << ", " << yr.hi << "]";

  nn::formats::AtomicFile out(options.outfile);
  {
    plsdev(device);
    plsfnam(out.temp_path().c_str());
    plspage(100.0, 100.0, 640, 480, 0, 0);
    plscmap0n(16);
    plscol0(0, 255, 255, 255);
    for (size_t i = 0; i < kCycle.size(); ++i) plscol0(PLINT(i + 1), kCycle[i][0], kCycle[i][1], kCycle[i][2]);
    plscol0(kAxisColor, 0, 0, 0);
    plscol0(kGridColor, 222, 222, 222);
    plscol0(kFrameColor, 204, 204, 204);
    plinit();
    PlplotSession session;
    pladv(0);
    plschr(0.0, 0.85);
    plvpor(0.12, 0.95, 0.12, 0.90);
    plwind(xr.lo, xr.hi, yr.lo, yr.hi);
    plcol0(kGridColor);
    plwidth(1.0);
    plbox("g", 0, 0, "g", 0, 0);
    plcol0(kAxisColor);
    plbox("bcnst", 0, 0, "bcnstv", 0, 0);
    pllab(plplot_text(text.xlabel).c_str(), plplot_text(text.ylabel).c_str(), plplot_text(text.title).c_str());
    for (size_t i = 0; i < series.size(); ++i) {
      plcol0(PLINT(1 + i % kCycle.size()));
      plwidth(2.0);
      std::vector<PLFLT> x(series[i].x.begin(), series[i].x.end()), y(series[i].y.begin(), series[i].y.end());
      plline(PLINT(x.size()), x.data(), y.data());
    }
    plwidth(1.0);
    draw_legend(series, xr, yr);
  }
  out.commit();
}

}  // namespace nncli
