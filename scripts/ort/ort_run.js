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

function loadOrt() {
  const dir = process.env.NN_ORT_DIR || path.join(os.homedir(), '.cache', 'nncli', 'ort');
  return require(path.join(dir, 'node_modules', 'onnxruntime-node'));
}

const kDtypes = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<i4': ['int32', Int32Array],
  '<i8': ['int64', BigInt64Array], '|u1': ['uint8', Uint8Array], '|i1': ['int8', Int8Array],
  '|b1': ['bool', Uint8Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLen;
  const header = buf.toString('latin1', major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order is not supported`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim()).filter((s) => s)
      .map(Number);
  const kind = kDtypes[descr];
  if (!kind) throw new Error(`${file}: dtype ${descr} is not supported`);
  const bytes = buf.subarray(start);
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  const data = new kind[1](copy.buffer, 0, bytes.length / kind[1].BYTES_PER_ELEMENT);
  return {type: kind[0], shape, data};
}

function writeNpy(file, shape, values) {
  const f32 = Float32Array.from(values, Number);
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat(63 - ((header.length + 10) % 64)) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const tmp = `${file}.tmp.${process.pid}`;
  fs.writeFileSync(tmp, Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(f32.buffer)]));
  fs.renameSync(tmp, file);
}

// A small linear congruential generator: the same inputs on every machine for a seed.
function makeRandom(seed) {
  let state = (BigInt(seed) * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
  return () => {
    state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number(state >> 40n) / 16777216 * 2 - 1;
  };
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
    writeNpy(path.join(dir, `input_${i}.npy`), shape, values);
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
    writeNpy(`${prefix}_${j}.npy`, t.dims, Array.from(t.data, (v) => (typeof v === 'bigint' ? Number(v) : +v)));
  });
}

function compare(fileA, fileB, atol, rtol) {
  const a = readNpy(fileA), b = readNpy(fileB);
  if (a.data.length !== b.data.length)
    throw new Error(`${fileA} has ${a.data.length} values, ${fileB} has ${b.data.length}`);
  let worst = 0, worstAt = -1;
  for (let i = 0; i < a.data.length; ++i) {
    const x = Number(a.data[i]), y = Number(b.data[i]);
    if (Number.isNaN(x) && Number.isNaN(y)) continue;
    const excess = Math.abs(x - y) - (atol + rtol * Math.abs(y));
    if (!(excess <= worst)) {
      worst = Number.isNaN(excess) ? Infinity : excess;
      worstAt = i;
    }
  }
  if (worstAt >= 0) {
    console.error(`mismatch: ${fileA} vs ${fileB} at flat index ${worstAt}: ` +
                  `${a.data[worstAt]} vs ${b.data[worstAt]} (atol ${atol}, rtol ${rtol})`);
    return 1;
  }
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
