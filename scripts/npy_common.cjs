// What the two JavaScript test runners share (scripts/ort/ort_run.js and, through Node's CommonJS import,
// scripts/litert/litert_run.mjs): .npy reading and writing, the seeded input generator and the tolerance check.
// Test tools only, not part of nncli.
'use strict';
const fs = require('fs');

// NumPy descr -> [type name, TypedArray]; kDescr is the way back.
const kDtypes = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<i4': ['int32', Int32Array],
  '<i8': ['int64', BigInt64Array], '|u1': ['uint8', Uint8Array], '|i1': ['int8', Int8Array],
  '|b1': ['bool', Uint8Array],
};
const kDescr = Object.fromEntries(Object.entries(kDtypes).map(([descr, [type]]) => [type, descr]));

// A C-order .npy file of one of the kDtypes: {type, shape, data} (data: a copy, aligned).
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
  const bytes = new Uint8Array(buf.subarray(start));
  return {type: kind[0], shape, data: new kind[1](bytes.buffer, 0, bytes.length / kind[1].BYTES_PER_ELEMENT)};
}

// Writes a version 1.0 .npy file of `type` (a kDescr key) through a temporary file.
function writeNpy(file, type, shape, data) {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${kDescr[type]}', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat(63 - ((header.length + 10) % 64)) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const tmp = `${file}.tmp.${process.pid}`;
  fs.writeFileSync(tmp, Buffer.concat([head, Buffer.from(header, 'latin1'), body]));
  fs.renameSync(tmp, file);
}

// A small linear congruential generator: the same values in [-1, 1) on every machine for a seed.
function makeRandom(seed) {
  let state = (BigInt(seed) * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
  return () => {
    state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number(state >> 40n) / 16777216 * 2 - 1;
  };
}

// Checks |a-b| <= atol + rtol*|b| for every element of two readNpy arrays (b the reference). The callers differ
// in two ways, kept as options: nanEqual, a NaN in both passes (ONNX Runtime's check); sameShape, the shapes
// must be equal and not only the element counts (LiteRT's). A mismatch is printed on stderr and gives null;
// else the largest |a-b|.
function compareArrays(a, b, fileA, fileB, {atol, rtol, nanEqual = false, sameShape = false}) {
  if (sameShape && (a.data.length !== b.data.length || a.shape.join(',') !== b.shape.join(',')))
    throw new Error(`${fileA} has shape (${a.shape}), ${fileB} has (${b.shape})`);
  if (a.data.length !== b.data.length)
    throw new Error(`${fileA} has ${a.data.length} values, ${fileB} has ${b.data.length}`);
  let worst = 0, worstAt = -1, maxDiff = 0;
  for (let i = 0; i < a.data.length; ++i) {
    const x = Number(a.data[i]), y = Number(b.data[i]);
    if (nanEqual && Number.isNaN(x) && Number.isNaN(y)) continue;
    maxDiff = Math.max(maxDiff, Math.abs(x - y));
    const excess = Math.abs(x - y) - (atol + rtol * Math.abs(y));
    if (!(excess <= worst)) {
      worst = Number.isNaN(excess) ? Infinity : excess;
      worstAt = i;
    }
  }
  if (worstAt >= 0) {
    console.error(`mismatch: ${fileA} vs ${fileB} at flat index ${worstAt}: ` +
                  `${a.data[worstAt]} vs ${b.data[worstAt]} (atol ${atol}, rtol ${rtol})`);
    return null;
  }
  return maxDiff;
}

module.exports = {readNpy, writeNpy, makeRandom, compareArrays};
