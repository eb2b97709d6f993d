// `nncli profile` outputs: upstream's profile.csv, a text summary with hotspots, JSON, and the baseline
// regression check (--baseline old.json --fail-if-slower PCT).
#pragma once
#include <string>
#include <vector>

#include "profile_runner.hpp"

namespace nncli::profile {

// Machine facts printed with every result (timings mean little without them).
struct MachineInfo {
  unsigned hardware_threads = 0;
  std::string omp_num_threads, openblas_num_threads;  // environment, "" when unset
  int threads = 0;                                    // the OpenMP team size the run used
  std::string openmp_runtime;                         // the library that runs OpenMP (libomp.so.5, libgomp.so.1)
  std::string context;
};
MachineInfo machine_info(const std::string& context);

// profile.csv: "time in ms,<title>..." then one row per item name (mean, %f; last function of a type wins).
std::string profile_csv(const std::vector<TargetResult>& results);
// Human summary: per target the whole iteration, throughput, memory, then the top hotspots.
std::string text_summary(const std::vector<TargetResult>& results, const MachineInfo& machine, size_t top);
std::string json_report(const std::vector<TargetResult>& results, const MachineInfo& machine);

// Compares whole-iteration medians with a previous JSON report. Returns one line per target that got slower
// by more than pct percent (empty: no regression). Targets missing from either side are logged.
std::vector<std::string> regressions(const std::vector<TargetResult>& results, const std::string& baseline_path,
                                     double pct);

}  // namespace nncli::profile
