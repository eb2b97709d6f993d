// LiteRT.js (@litertjs/core, TFLite in WebAssembly) runner for nncli's TFLite tests: a test dependency only.
//
//   node litert_run.mjs inputs MODEL.tflite DIR [SEED] [--nchw]   write DIR/input_<i>.npy: deterministic values
//        in [-1, 1) (integer inputs: their type's range) of the model's input shapes; --nchw: rank-4 inputs
//        are written (N, C, H, W) as nncli infer takes them
//   node litert_run.mjs run MODEL.tflite PREFIX [--nchw] IN.npy...   run on the CPU (wasm), write PREFIX_<j>.npy;
//        --nchw: (N, C, H, W) inputs are fed as NHWC and rank-4 outputs written back as (N, C, H, W)
//   node litert_run.mjs compare A.npy B.npy [ATOL] [RTOL] [--nchw]   exit 1 when |a-b| > ATOL + RTOL*|b| anywhere;
//        --nchw: a rank-4 A is NHWC (a .tflite's output) and is compared as (N, C, H, W)
//   node litert_run.mjs classify MODEL.tflite X.npy LABELS.npy [--nchw]   top-1 accuracy of a one-input classifier
//        over every sample of X (first axis), fed in batches of the model's batch size; prints "accuracy A (k/n)"
// The package is looked up in $NN_LITERT_DIR (default ~/.cache/nncli/litert, where scripts/setup_litert.sh
// installs it). Its browser loader is given the few globals it expects under Node.
import fs from 'fs';
import os from 'os';
import path from 'path';
import vm from 'vm';
import {createRequire} from 'module';
import {pathToFileURL} from 'url';
import npy from '../npy_common.cjs';

const {readNpy, writeNpy, makeRandom, compareArrays} = npy;

const kArrays = {float32: Float32Array, int32: Int32Array, uint8: Uint8Array, int8: Int8Array};

// Reorders a rank-4 array: toNhwc moves axis 1 last, otherwise axis 3 to position 1.
function transpose4(data, shape, toNhwc) {
  const [n, a, b, c] = shape;
  const out = new data.constructor(data.length);
  const newShape = toNhwc ? [n, b, c, a] : [n, c, a, b];
  let k = 0;
  for (let i = 0; i < n; ++i)
    for (let x = 0; x < a; ++x)
      for (let y = 0; y < b; ++y)
        for (let z = 0; z < c; ++z, ++k) {
          const [p, q, r] = toNhwc ? [y, z, x] : [z, x, y];  // position in the new (n, ., ., .) array
          out[((i * newShape[1] + p) * newShape[2] + q) * newShape[3] + r] = data[k];
        }
  return {data: out, shape: newShape};
}

// LiteRT.js's JavaScript dtype table lists float32, int32 and uint8 only; the wasm runtime runs int8 and int64
// tensors as well. A copy of dist/index.js beside it gets int8 and int64 entries (the runtime is unchanged).
function withIntegerDtypes(dir) {
  const src = path.join(dir, 'dist', 'index.js');
  const dst = path.join(dir, 'dist', 'index.nncli-dtypes.js');
  if (!fs.existsSync(dst) || fs.statSync(dst).mtimeMs < fs.statSync(src).mtimeMs) {
    const text = fs.readFileSync(src, 'utf8');
    const anchor = 'var DATATYPES = Object.freeze([';
    if (!text.includes(anchor)) throw new Error(`${src}: dtype table not found (unexpected LiteRT.js version)`);
    const extra = anchor + '\n  { dtype: "int8", typedArrayConstructor: Int8Array, elementType: ElementType.INT8 },' +
        '\n  { dtype: "int64", typedArrayConstructor: BigInt64Array, elementType: ElementType.INT64 },';
    fs.writeFileSync(`${dst}.tmp`, text.replace(anchor, extra));
    fs.renameSync(`${dst}.tmp`, dst);
  }
  return dst;
}

async function loadModel(file) {
  const dir = path.join(process.env.NN_LITERT_DIR || path.join(os.homedir(), '.cache', 'nncli', 'litert'),
                        'node_modules', '@litertjs', 'core');
  globalThis.self = globalThis;
  globalThis.__dirname = path.join(dir, 'wasm');
  globalThis.__filename = path.join(dir, 'wasm', 'loader.js');
  globalThis.require = createRequire(import.meta.url);
  globalThis.importScripts = (p) => {
    const f = String(p).replace(/^file:\/\//, '');
    vm.runInThisContext(fs.readFileSync(f, 'utf8'), {filename: f});
  };
  const quiet = console.log, warn = console.warn, info = console.info;
  console.log = console.warn = console.info = () => {};  // the runtime logs its setup on stdout
  try {
    const core = await import(pathToFileURL(withIntegerDtypes(dir)).href);
    await core.loadLiteRt(path.join(dir, 'wasm') + '/');
    const model = await core.loadAndCompile(new Uint8Array(fs.readFileSync(file)), {accelerator: 'wasm'});
    return {core, model};
  } finally {
    console.log = quiet, console.warn = warn, console.info = info;
  }
}

async function writeInputs(file, dir, seed, nchw) {
  const {model} = await loadModel(file);
  const random = makeRandom(seed);
  fs.mkdirSync(dir, {recursive: true});
  model.getInputDetails().forEach((d, i) => {
    let shape = Array.from(d.shape);
    const count = shape.reduce((a, b) => a * b, 1);
    const Arr = kArrays[d.dtype];
    if (!Arr) throw new Error(`input ${i}: dtype ${d.dtype} is not supported`);
    let data = new Arr(count);
    for (let k = 0; k < count; ++k) {
      const r = random();
      data[k] = d.dtype === 'float32' ? r : d.dtype === 'int8' ? Math.floor(r * 128) : Math.floor((r + 1) * 128);
    }
    if (nchw && shape.length === 4) ({data, shape} = transpose4(data, shape, false));
    const out = path.join(dir, `input_${i}.npy`);
    writeNpy(out, d.dtype, shape, data);
    console.log(out);
  });
}

async function run(file, prefix, nchw, inputFiles) {
  const {core, model} = await loadModel(file);
  const details = model.getInputDetails();
  if (inputFiles.length !== details.length)
    throw new Error(`${file}: ${details.length} input(s), but ${inputFiles.length} file(s) were given`);
  const tensors = details.map((d, i) => {
    let {data, shape, type} = readNpy(inputFiles[i]);
    if (nchw && shape.length === 4) ({data, shape} = transpose4(data, shape, true));
    if (type !== d.dtype) data = kArrays[d.dtype].from(data, Number);
    const want = Array.from(d.shape);
    if (want.join(',') !== shape.join(','))
      throw new Error(`input ${i} '${d.name}': the model takes (${want}), the file has (${shape})`);
    return new core.Tensor(data, want);
  });
  const results = await model.run(tensors);
  model.getOutputDetails().forEach((d, j) => {
    let data = results[j].toTypedArray();
    let shape = Array.from(d.shape);
    if (nchw && shape.length === 4) ({data, shape} = transpose4(data, shape, false));
    writeNpy(`${prefix}_${j}.npy`, d.dtype, shape, data);
  });
}

async function classify(file, xFile, yFile, nchw) {
  const {core, model} = await loadModel(file);
  const d = model.getInputDetails()[0];
  const x = readNpy(xFile), y = readNpy(yFile);
  const batch = d.shape[0], per = x.data.length / x.shape[0];
  const n = x.shape[0] - (x.shape[0] % batch);
  let correct = 0;
  for (let s = 0; s < n; s += batch) {
    let data = kArrays[d.dtype].from(x.data.subarray(s * per, (s + batch) * per), Number);
    let shape = [batch, ...x.shape.slice(1)];
    if (nchw && shape.length === 4) ({data, shape} = transpose4(data, shape, true));
    const results = await model.run([new core.Tensor(data, Array.from(d.shape))]);
    const out = results[0].toTypedArray();
    const classes = out.length / batch;
    for (let b = 0; b < batch; ++b) {
      let best = 0;
      for (let c = 1; c < classes; ++c) if (out[b * classes + c] > out[b * classes + best]) best = c;
      if (best === Number(y.data[s + b])) ++correct;
    }
  }
  console.log(`accuracy ${(correct / n).toFixed(4)} (${correct}/${n})`);
  return 0;
}

function compare(fileA, fileB, atol, rtol, nchw) {
  const a = readNpy(fileA), b = readNpy(fileB);
  if (nchw && a.shape.length === 4) Object.assign(a, transpose4(a.data, a.shape, false));
  const maxDiff = compareArrays(a, b, fileA, fileB, {atol, rtol, sameShape: true});
  if (maxDiff === null) return 1;
  console.log(`match: ${path.basename(fileA)} vs ${path.basename(fileB)} (${a.data.length} values, ` +
              `max abs diff ${maxDiff.toExponential(2)})`);
  return 0;
}

async function main(argv) {
  const [command, ...args] = argv;
  const nchw = args.includes('--nchw');
  const rest = args.filter((a) => a !== '--nchw');
  if (command === 'inputs' && rest.length >= 2)
    return writeInputs(rest[0], rest[1], Number(rest[2] || 0), nchw).then(() => 0);
  if (command === 'run' && rest.length >= 2) return run(rest[0], rest[1], nchw, rest.slice(2)).then(() => 0);
  if (command === 'classify' && rest.length >= 3) return classify(rest[0], rest[1], rest[2], nchw);
  if (command === 'compare' && rest.length >= 2)
    return compare(rest[0], rest[1], Number(rest[2] || 1e-4), Number(rest[3] || 1e-4), nchw);
  console.error('usage: litert_run.mjs inputs MODEL DIR [SEED] [--nchw] | run MODEL PREFIX [--nchw] IN.npy... | ' +
                'compare A.npy B.npy [ATOL] [RTOL]');
  return 2;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  console.error(`litert_run.mjs: error: ${err.message}`);
  process.exitCode = 1;
});
