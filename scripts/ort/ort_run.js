// ONNX Runtime (onnxruntime-node) runner for nncli's tests: a test dependency, not a product dependency.
//
//   node ort_run.js inputs MODEL.onnx DIR [SEED] [BATCH]  write DIR/input_<i>.npy: deterministic values in
//                                                        [-1, 1) of the model's input shapes (symbolic dims:
//                                                        BATCH, default 1)
//   node ort_run.js run MODEL.onnx PREFIX IN.npy...       run ORT, write PREFIX_<j>.npy per graph output
//   node ort_run.js compare A.npy B.npy [ATOL] [RTOL]     exit 1 when |a-b| > ATOL + RTOL*|b| anywhere
// The package is looked up in $NN_ORT_DIR (default ~/.cache/nncli/ort, where scripts/setup_ort.sh installs it).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {readNpy, writeNpy, makeRandom, compareArrays} = require('../npy_common.cjs');

function loadOrt() {
  const dir = process.env.NN_ORT_DIR || path.join(os.homedir(), '.cache', 'nncli', 'ort');
  return require(path.join(dir, 'node_modules', 'onnxruntime-node'));
}

async function writeInputs(model, dir, seed, batch) {
  const ort = loadOrt();
  const session = await ort.InferenceSession.create(model);
  const random = makeRandom(seed);
  fs.mkdirSync(dir, {recursive: true});
  session.inputMetadata.forEach((meta, i) => {
    const shape = meta.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : batch));
    const count = shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(count);
    for (let k = 0; k < count; ++k) values[k] = random();
    writeNpy(path.join(dir, `input_${i}.npy`), 'float32', shape, values);
    console.log(path.join(dir, `input_${i}.npy`));
  });
}

async function run(model, prefix, inputFiles) {
  const ort = loadOrt();
  const session = await ort.InferenceSession.create(model);
  if (inputFiles.length !== session.inputNames.length)
    throw new Error(`${model}: ${session.inputNames.length} input(s) (${session.inputNames.join(', ')}), ` +
                    `but ${inputFiles.length} file(s) were given`);
  const feeds = {};
  session.inputNames.forEach((name, i) => {
    const a = readNpy(inputFiles[i]);
    const wanted = session.inputMetadata[i].type || 'float32';
    const data = wanted === 'float32' && a.type !== 'float32' ? Float32Array.from(a.data, Number) : a.data;
    feeds[name] = new ort.Tensor(wanted === 'float32' ? 'float32' : a.type, data, a.shape);
  });
  const results = await session.run(feeds);
  session.outputNames.forEach((name, j) => {
    const t = results[name];
    writeNpy(`${prefix}_${j}.npy`, 'float32', t.dims,
             Float32Array.from(t.data, (v) => (typeof v === 'bigint' ? Number(v) : +v)));
  });
}

function compare(fileA, fileB, atol, rtol) {
  const a = readNpy(fileA), b = readNpy(fileB);
  if (compareArrays(a, b, fileA, fileB, {atol, rtol, nanEqual: true}) === null) return 1;
  console.log(`match: ${fileA} vs ${fileB} (${a.data.length} values)`);
  return 0;
}

async function main(argv) {
  const [command, ...args] = argv;
  if (command === 'inputs' && args.length >= 2)
    return writeInputs(args[0], args[1], Number(args[2] || 0), Number(args[3] || 1)).then(() => 0);
  if (command === 'run' && args.length >= 2) return run(args[0], args[1], args.slice(2)).then(() => 0);
  if (command === 'compare' && args.length >= 2)
    return compare(args[0], args[1], Number(args[2] || 1e-4), Number(args[3] || 1e-4));
  console.error('usage: ort_run.js inputs MODEL DIR [SEED] [BATCH] | run MODEL PREFIX IN.npy... | ' +
                'compare A.npy B.npy [ATOL] [RTOL]');
  return 2;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  console.error(`ort_run.js: error: ${err.message}`);
  process.exitCode = 1;
});
