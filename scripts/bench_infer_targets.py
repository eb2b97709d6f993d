# Issue 37's inference targets over bench_infer.sh's figures: prints the geometric means and every row that misses.
"""Usage: bench_infer_targets.py FIGURES   (lines: name ort_quiet nn_quiet nn1_quiet ort_busy nn_busy nn1_busy, ms)
Exit status 0 when every target holds, 1 when one does not (a row with a missing figure counts as missing)."""
import math
import sys


def main(path):
    rows = []
    with open(path) as f:
        for line in f:
            name, *figures = line.split()
            rows.append((name, [float(x) for x in figures]))
    quiet, busy, misses = [], [], []
    for name, (oq, nq, q1, ob, nb, n1) in rows:
        rq, rb = oq / nq, ob / nb
        own = max(nq / q1, nb / n1)
        if any(math.isnan(v) for v in (rq, rb, own)):
            misses.append(f"{name}: a figure is missing")
            continue
        quiet.append(rq)
        busy.append(rb)
        if rq < 1.0:
            misses.append(f"{name}: {rq:.2f}x ONNX Runtime quiet (target 1.0x)")
        if rb < 0.9:
            misses.append(f"{name}: {rb:.2f}x ONNX Runtime busy (target 0.9x)")
        if own > 1.2:
            misses.append(f"{name}: default {own:.2f}x slower than one thread (target at most 1.2x)")
    geo = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
    print(f"geometric mean over {len(quiet)} rows: {geo(quiet):.2f}x quiet (target 1.15x), {geo(busy):.2f}x busy")
    if geo(quiet) < 1.15 or not quiet:
        misses.append("geometric mean of the quiet ratios under 1.15x")
    print("targets: all hold" if not misses else "targets missed:\n  " + "\n  ".join(misses))
    return 0 if not misses else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
