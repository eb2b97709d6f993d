#!/usr/bin/env bash
# Start-up time: median wall and CPU milliseconds of `nncli version`, `nncli --help` and a LeNet `nncli infer`
# over RUNS runs each, on the quiet machine and with two busy loops per core (issue targets: version < 10 ms,
# LeNet infer < 15 ms). Usage: scripts/bench_startup.sh [runs]   (BUILD, NNCLI as in bench_infer.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-100}
NNCLI=${NNCLI:-${BUILD:-build}/apps/nncli/nncli}
work=$(mktemp -d)
source scripts/busy_loops.sh
trap 'stop_busy; rm -rf "$work"' EXIT
lenet=sample_models/mnist_lenet
measure() {
  /usr/bin/python3 - "$RUNS" "$NNCLI" "$lenet" "$work" <<'PY'
import resource, statistics, subprocess, sys, time
runs, nncli, lenet, work = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
commands = {
    "nncli version": [nncli, "version"],
    "nncli --help": [nncli, "--help"],
    "nncli infer (LeNet)": [nncli, "-q", "infer", "-c", f"{lenet}/result2.nnp", "-o", f"{work}/out",
                            f"{lenet}/input_4_1.bin"],
}
for name, cmd in commands.items():
    walls, cpus = [], []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        t1 = time.perf_counter()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        walls.append((t1 - t0) * 1e3)
        cpus.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1e3)
    print(f"| {name:22s} | {statistics.median(walls):8.2f} | {statistics.median(cpus):8.2f} |")
PY
}
echo "nncli: $NNCLI ($(nproc) cores), median of $RUNS runs, milliseconds"
echo "| quiet                  |     wall |      cpu |"
measure
start_busy
echo "| busy (2 loops per core) |     wall |      cpu |"
measure
stop_busy
