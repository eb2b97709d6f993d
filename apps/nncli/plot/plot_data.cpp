// Monitor files and monitoring_report.yml to plot series (see plot_data.hpp).
#include "plot/plot_data.hpp"

#include <cstdlib>
#include <map>
#include <string_view>

#include "formats/common/atomic_file.hpp"
#include "formats/common/file_format.hpp"
#include "nn/core/error.hpp"

namespace nncli {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    lines.push_back(text.substr(0, newline));
    if (newline == std::string_view::npos) break;
    text.remove_prefix(newline + 1);
  }
  return lines;
}

bool parse_number(std::string_view token, double& value) {
  const std::string text(token);
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

// Whitespace-separated numeric columns of every non-blank line; each line needs at least `columns`.
std::vector<std::vector<double>> read_columns(const std::string& path, size_t columns, const char* layout) {
  const std::string text = nn::formats::read_file(path);
  std::vector<std::vector<double>> rows;
  size_t line_no = 0;
  for (std::string_view line : split_lines(text)) {
    ++line_no;
    line = trim(line);
    if (line.empty()) continue;
    std::vector<double> row;
    while (!line.empty()) {
      const size_t space = line.find_first_of(" \t");
      double value = 0.0;
      NN_CHECK(parse_number(line.substr(0, space), value))
          << "'" << path << "':" << line_no << ": '" << line.substr(0, space) << "' is not a number (expected "
          << layout << ")";
      row.push_back(value);
      line = space == std::string_view::npos ? std::string_view() : trim(line.substr(space));
    }
    NN_CHECK(row.size() >= columns) << "'" << path << "':" << line_no << ": " << row.size()
                                    << " column(s), expected " << layout;
    rows.push_back(std::move(row));
  }
  NN_CHECK(!rows.empty()) << "'" << path << "': no data";
  return rows;
}

}  // namespace

PlotSeries read_series_file(const std::string& path) {
  PlotSeries series;
  for (const auto& row : read_columns(path, 2, "'<index> <value>'")) {
    series.x.push_back(row[0]);
    series.y.push_back(double(float(row[1])));
  }
  return series;
}

PlotSeries read_timer_file(const std::string& path, bool total, double unit_seconds) {
  PlotSeries series;
  const size_t column = total ? 3 : 1;
  for (const auto& row : read_columns(path, column + 1, "'<index> <elapsed> <iterations> <total elapsed>'")) {
    series.x.push_back(row[0]);
    series.y.push_back(double(float(row[column])) / unit_seconds);
  }
  return series;
}

bool is_monitoring_report(const std::string& path) {
  const std::string ext = nn::formats::file_extension(path);
  return ext == "yml" || ext == "yaml";
}

std::vector<PlotSeries> read_monitoring_report(const std::string& path) {
  const std::string text = nn::formats::read_file(path);
  std::vector<PlotSeries> series;
  std::map<std::string, size_t> index_of;
  bool have_epoch = false;
  double epoch = 0.0;
  size_t line_no = 0;
  for (std::string_view raw : split_lines(text)) {
    ++line_no;
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    const size_t colon = line.find(':');
    NN_CHECK(colon != std::string_view::npos)
        << "'" << path << "':" << line_no << ": expected '<epoch>:' or '<name>: <value>'";
    const std::string_view key = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    double number = 0.0;
    if (raw.front() != ' ' && raw.front() != '\t') {
      NN_CHECK(value.empty() && parse_number(key, epoch))
          << "'" << path << "':" << line_no << ": expected '<epoch>:', got '" << line << "'";
      have_epoch = true;
      continue;
    }
    NN_CHECK(have_epoch) << "'" << path << "':" << line_no << ": a value before the first '<epoch>:' line";
    NN_CHECK(parse_number(value, number))
        << "'" << path << "':" << line_no << ": '" << value << "' is not a number";
    auto [it, added] = index_of.emplace(std::string(key), series.size());
    if (added) series.push_back(PlotSeries{std::string(key), {}, {}});
    series[it->second].x.push_back(epoch);
    series[it->second].y.push_back(number);
  }
  NN_CHECK(!series.empty()) << "'" << path << "': no data";
  return series;
}

}  // namespace nncli
