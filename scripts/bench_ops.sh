#!/usr/bin/env bash
# Times single functions through libnn (bench/bench_ops.cpp) and PyTorch in the same run and prints the
# ratios libnn/PyTorch (> 1: libnn is slower): LayerNormalization over 4096 features, Softmax over 1000
# classes, Add2 with broadcasting, Sigmoid/ReLU on 1M elements, Sum over an axis, BatchNormalization
# inference; forward, and forward+backward. PyTorch runs with torch.set_num_threads(2).
# Usage: scripts/bench_ops.sh [seconds-per-figure]        (BUILD=build-dir to reuse a build;
#        BENCH_OPS=path/to/bench_ops to time an already built binary)
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-2}
BUILD=${BUILD:-build}
if [ -z "${BENCH_OPS:-}" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$BUILD" bench_ops >/dev/null
  BENCH_OPS="$BUILD/bench/bench_ops"
fi
ours=$("$BENCH_OPS" "$SECS")
echo "== libnn ($(nproc) cores): case, forward ms, forward+backward ms"
echo "$ours"
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
  echo "== PyTorch: not installed (apt-get install python3-torch); no ratios"
  exit 0
fi
theirs=$(/usr/bin/python3 - "$SECS" <<'PY'
import sys, time, torch
torch.set_num_threads(2)
secs = float(sys.argv[1])
def time_ms(step):
    for _ in range(3): step()
    best = 1e30
    for _ in range(5):
        n, t0 = 0, time.perf_counter()
        while True:
            step(); n += 1
            el = time.perf_counter() - t0
            if el >= secs / 5: break
        best = min(best, el * 1000.0 / n)
    return best
def bench(name, make):
    inputs, f = make()
    def fwd():
        with torch.no_grad(): f(*inputs)
    def fwd_bwd():  # gradients accumulate into .grad, as nnabla's leaf gradients do in bench_ops
        f(*inputs).backward(ones)
    ones = torch.ones_like(f(*inputs).detach())
    print("%-28s %10.4f %10.4f" % (name, time_ms(fwd), time_ms(fwd_bwd)), flush=True)
g = torch.Generator().manual_seed(1)
def rnd(*s): return torch.randn(*s, generator=g).requires_grad_(True)
bench("layer_norm_64x4096", lambda: ((rnd(64, 4096), rnd(4096), rnd(4096)),
      lambda x, b, w: torch.nn.functional.layer_norm(x, (4096,), w, b, 1e-5)))
bench("softmax_256x1000", lambda: ((rnd(256, 1000),), lambda x: torch.softmax(x, 1)))
bench("add2_bcast_32x64x56x56+64", lambda: ((rnd(32, 64, 56, 56), rnd(1, 64, 1, 1)), lambda a, b: a + b))
bench("sigmoid_1024x1024", lambda: ((rnd(1024, 1024),), torch.sigmoid))
bench("relu_1024x1024", lambda: ((rnd(1024, 1024),), torch.relu))
bench("sum_axis1_64x1024x64", lambda: ((rnd(64, 1024, 64),), lambda x: x.sum(1)))
rm, rv = torch.randn(64, generator=g), 1 + torch.randn(64, generator=g) ** 2
bench("bn_infer_64x64x56x56", lambda: ((rnd(64, 64, 56, 56), rnd(64), rnd(64)),
      lambda x, b, w: torch.nn.functional.batch_norm(x, rm, rv, w, b, training=False)))
PY
)
echo "== PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)') (2 threads)"
echo "$theirs"
echo "== ratio libnn / PyTorch (forward, forward+backward; > 1.5 flagged SLOW)"
join <(echo "$ours" | sort) <(echo "$theirs" | sort) | awk '{
  rf = $2 / $4; rb = $3 / $5;
  printf "%-28s %7.2fx %7.2fx%s\n", $1, rf, rb, (rf > 1.5 || rb > 1.5) ? "   SLOW" : "" }'
