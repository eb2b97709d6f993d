// ONNX Runtime anchor for scripts/bench_engine.sh: times session.run of an ONNX model on random float inputs
// with N intra-op threads (best of 3 rounds after warm-up) and prints "<label> <ms per run> ms <images/s> images/s,
// median <ms> ms" (the median of every run's own time, as nncli profile's median_ms).
//   node ort_bench.js MODEL.onnx LABEL SECONDS [THREADS]
'use strict';
const os = require('os');
const path = require('path');
const dir = process.env.NN_ORT_DIR || path.join(os.homedir(), '.cache', 'nncli', 'ort');
const ort = require(path.join(dir, 'node_modules', 'onnxruntime-node'));

async function main() {
  const [model, label, secondsArg, threadsArg] = process.argv.slice(2);
  const seconds = Number(secondsArg || 3);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threadsArg || 2), interOpNumThreads: 1, graphOptimizationLevel: 'all',
  });
  const feeds = {};
  let batch = 1;
  for (const name of session.inputNames) {
    const meta = session.inputMetadata ? session.inputMetadata.find((m) => m.name === name) : null;
    const dims = meta && meta.shape ? meta.shape.map((d) => (typeof d === 'number' ? d : 1)) : null;
    if (!dims) throw new Error(`${model}: input ${name} has no static shape`);
    batch = dims[0];
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1)).map(() => Math.random());
    feeds[name] = new ort.Tensor('float32', data, dims);
  }
  for (let i = 0; i < 10; ++i) await session.run(feeds);
  let best = Infinity;
  const runs = [];
  for (let round = 0; round < 3; ++round) {
    let n = 0;
    const t0 = process.hrtime.bigint();
    let elapsed = 0;
    do {
      const r0 = process.hrtime.bigint();
      await session.run(feeds);
      runs.push(Number(process.hrtime.bigint() - r0) / 1e9);
      ++n;
      elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
    } while (elapsed < seconds / 3);
    best = Math.min(best, elapsed / n);
  }
  runs.sort((a, b) => a - b);
  const median = runs[Math.floor(runs.length / 2)];
  console.log(`${label} ${(best * 1e3).toFixed(4)} ms ${(batch / best).toFixed(1)} images/s, median ${(median * 1e3).toFixed(4)} ms`);
}
main().catch((e) => { console.error(`ort_bench: ${e.message}`); process.exit(1); });
