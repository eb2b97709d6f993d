// `nncli profile` outputs: profile.csv, text summary with hotspots, JSON and the baseline regression check.
#include "run/profile_report.hpp"

#include <dlfcn.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "common/json_text.hpp"

namespace nncli::profile {

namespace {

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string fixed(double v, int decimals = 6) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

nlohmann::ordered_json stats_json(const Stats& s) {
  return {{"count", s.count}, {"mean_ms", s.mean}, {"median_ms", s.median}, {"p90_ms", s.p90},
          {"p99_ms", s.p99},  {"min_ms", s.min},   {"max_ms", s.max},       {"outliers", s.outliers}};
}

// Functions of a target by median time, slowest first.
std::vector<const Item*> hotspots(const TargetResult& r) {
  std::vector<const Item*> items;
  for (const auto& item : r.items)
    if (item.kind != "step") items.push_back(&item);
  std::stable_sort(items.begin(), items.end(),
                   [](const Item* a, const Item* b) { return a->stats.median > b->stats.median; });
  return items;
}

// The file name of the library whose omp_get_max_threads this process calls.
std::string openmp_library() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&omp_get_max_threads), &info) || !info.dli_fname) return "unknown";
  const std::string path = info.dli_fname;
  return path.substr(path.find_last_of('/') + 1);
}

}  // namespace

MachineInfo machine_info(const std::string& context) {
  return {std::thread::hardware_concurrency(),
          env_or_empty("OMP_NUM_THREADS"),
          env_or_empty("OPENBLAS_NUM_THREADS"),
          omp_get_max_threads(),
          openmp_library(),
          context};
}

std::string profile_csv(const std::vector<TargetResult>& results) {
  std::vector<std::string> rows;                                      // item names, first-seen order
  std::vector<std::map<std::string, double>> values(results.size());  // per target: name -> mean
  for (size_t t = 0; t < results.size(); ++t)
    for (const auto& item : results[t].items) {
      if (std::find(rows.begin(), rows.end(), item.csv_name) == rows.end()) rows.push_back(item.csv_name);
      values[t][item.csv_name] = item.stats.mean;  // upstream keys rows by name: the last one wins
    }
  std::string out = "time in ms";
  for (const auto& r : results) out += "," + r.title;
  out += "\n";
  for (const auto& row : rows) {
    out += row;
    for (const auto& v : values) {
      auto it = v.find(row);
      out += "," + (it == v.end() ? std::string() : fixed(it->second));
    }
    out += "\n";
  }
  return out;
}

std::string text_summary(const std::vector<TargetResult>& results, const MachineInfo& m, size_t top) {
  std::string out =
      "machine: " + std::to_string(m.hardware_threads) +
      " hardware threads, OMP_NUM_THREADS=" + (m.omp_num_threads.empty() ? "(unset)" : m.omp_num_threads) +
      ", OPENBLAS_NUM_THREADS=" + (m.openblas_num_threads.empty() ? "(unset)" : m.openblas_num_threads) + ", " +
      std::to_string(m.threads) + " threads on " + m.openmp_runtime + ", context " + m.context + "\n";
  for (const auto& r : results) {
    const Stats& s = r.iteration;
    out += r.title + ": batch " + std::to_string(r.batch_size) + ", data: " + r.data_note + "\n";
    if (r.kind == "optimizer")
      out += "  solver " + r.solver + " on " + std::to_string(r.trained_parameters) + " parameters\n";
    if (r.sub_batch > 0)
      out += "  run as " + std::to_string(r.batch_size / r.sub_batch) + " sub-batches of " +
             std::to_string(r.sub_batch) + " on " + std::to_string(r.split_threads) +
             " threads (function times: totals over the sub-batches / threads)\n";
    out += "  warm-up " + std::to_string(r.warmup.iterations) + " runs (" +
           (r.warmup.stable ? "stable" : "not stable") + "), measured " + std::to_string(r.runs) + " runs, " +
           std::to_string(s.outliers) + " outliers\n";
    out += "  iteration median " + fixed(s.median, 3) + " ms, p90 " + fixed(s.p90, 3) + " ms, p99 " +
           fixed(s.p99, 3) + " ms, throughput " + fixed(r.throughput, 1) + " samples/s, peak memory " +
           std::to_string(r.peak_bytes) + " bytes\n";
    const auto hot = hotspots(r);
    if (!hot.empty()) out += "  hotspots (median ms, p90, share of the iteration):\n";
    for (size_t i = 0; i < std::min(top, hot.size()); ++i) {
      const Item& it = *hot[i];
      const double share = s.median > 0 ? 100.0 * it.stats.median / s.median : 0.0;
      char line[512];
      std::snprintf(line, sizeof(line), "    %-9s %-32s %-20s %10.4f %10.4f %6.1f%%\n",
                    it.kind == "forward_function" ? "forward" : "backward", it.function_name.c_str(),
                    it.function_type.c_str(), it.stats.median, it.stats.p90, share);
      out += line;
    }
  }
  return out;
}

std::string json_report(const std::vector<TargetResult>& results, const MachineInfo& m) {
  nlohmann::ordered_json j;
  j["machine"] = {{"hardware_threads", m.hardware_threads},
                  {"omp_num_threads", m.omp_num_threads},
                  {"openblas_num_threads", m.openblas_num_threads},
                  {"threads", m.threads},
                  {"openmp_runtime", m.openmp_runtime},
                  {"context", m.context}};
  j["targets"] = nlohmann::json::array();
  for (const auto& r : results) {
    nlohmann::ordered_json t{{"kind", r.kind},
                             {"name", r.name},
                             {"network", r.network},
                             {"title", r.title},
                             {"batch_size", r.batch_size},
                             {"data", r.data_note},
                             {"warmup_runs", r.warmup.iterations},
                             {"warmup_stable", r.warmup.stable},
                             {"runs", r.runs}};
    if (r.kind == "optimizer") t["solver"] = {{"type", r.solver}, {"trained_parameters", r.trained_parameters}};
    if (r.sub_batch > 0) t["split"] = {{"sub_batch", r.sub_batch}, {"threads", r.split_threads}};
    t["iteration"] = stats_json(r.iteration);
    t["throughput_samples_per_s"] = r.throughput;
    t["peak_bytes"] = r.peak_bytes;
    t["items"] = nlohmann::json::array();
    for (const auto& item : r.items) {
      nlohmann::ordered_json i{{"name", item.csv_name}, {"kind", item.kind}};
      if (item.kind != "step") {
        i["function"] = item.function_name;
        i["type"] = item.function_type;
      }
      i["stats"] = stats_json(item.stats);
      t["items"].push_back(i);
    }
    t["hotspots"] = nlohmann::json::array();
    for (const Item* h : hotspots(r))
      t["hotspots"].push_back({{"kind", h->kind}, {"function", h->function_name}, {"median_ms", h->stats.median}});
    j["targets"].push_back(t);
  }
  return json_text(j, 2) + "\n";
}

std::vector<std::string> regressions(const std::vector<TargetResult>& results, const std::string& path,
                                     double pct) {
  nlohmann::json base;
  try {
    base = nlohmann::json::parse(nn::formats::read_file(path));
  } catch (const nlohmann::json::exception& e) {
    NN_FAIL(nn::ErrorCode::kInvalid) << "'" << path << "': not a profile JSON report: " << e.what();
  }
  NN_CHECK(base.contains("targets") && base["targets"].is_array())
      << "'" << path << "': not a profile JSON report (no \"targets\" list)";
  std::map<std::string, double> old_median;
  for (const auto& t : base["targets"]) {
    NN_CHECK(t.contains("title") && t.contains("iteration") && t["iteration"].contains("median_ms"))
        << "'" << path << "': a target lacks \"title\" or \"iteration\".\"median_ms\"";
    old_median[t["title"].get<std::string>()] = t["iteration"]["median_ms"].get<double>();
  }
  std::vector<std::string> slower;
  for (const auto& r : results) {
    auto it = old_median.find(r.title);
    if (it == old_median.end()) {
      NN_LOG_WARNING << "baseline has no " << r.title << ": not compared";
      continue;
    }
    const double change = it->second > 0 ? 100.0 * (r.iteration.median / it->second - 1.0) : 0.0;
    NN_LOG_INFO << r.title << ": median " << fixed(r.iteration.median, 3) << " ms vs baseline "
                << fixed(it->second, 3) << " ms (" << (change >= 0 ? "+" : "") << fixed(change, 1) << "%)";
    if (change > pct)
      slower.push_back(r.title + ": median " + fixed(r.iteration.median, 3) + " ms is " + fixed(change, 1) +
                       "% slower than the baseline " + fixed(it->second, 3) + " ms (limit " + fixed(pct, 1) +
                       "%)");
  }
  return slower;
}

}  // namespace nncli::profile
