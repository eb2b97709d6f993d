#!/usr/bin/env python3
"""Fashion-MNIST (IDX .gz files) -> nnabla NPY cache directories (docs/datasets.md) or NNC-style CSV + PNG files.

Reads train-/t10k-{images-idx3,labels-idx1}-ubyte.gz (Debian package dataset-fashion-mnist installs them in
/usr/share/datasets/fashion-mnist) and writes, under OUTDIR:
  cache (default): train.cache/ and test.cache/ with cache_info.csv (x, y), cache_index.csv,
                   cache_<start:08d>_<end:08d>.npy (x uint8 (n,1,28,28) then y float32 (n,1)), order.csv;
  csv:             train.csv / test.csv (header x:image,y:label) with the images as PNG files.
Standard library only.
"""
import argparse
import gzip
import os
import struct
import sys
import zlib

DEFAULT_SRC = "/usr/share/datasets/fashion-mnist"


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    zero, dtype, ndim = struct.unpack_from(">HBB", data, 0)
    if zero != 0 or dtype != 0x08:
        sys.exit("%s: not an unsigned-byte IDX file" % path)
    dims = struct.unpack_from(">" + "I" * ndim, data, 4)
    offset = 4 + 4 * ndim
    count = 1
    for d in dims:
        count *= d
    if len(data) - offset != count:
        sys.exit("%s: expected %d bytes of data, found %d" % (path, count, len(data) - offset))
    return dims, data[offset:]


def npy_record(descr, shape, payload):
    """One NPY (version 1.0) record: magic, header padded to a multiple of 64 bytes, raw data."""
    shape_text = "(%d,)" % shape[0] if len(shape) == 1 else "(" + ", ".join("%d" % d for d in shape) + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + payload


def write_cache(outdir, images, labels, rows, cols, per_file):
    os.makedirs(outdir, exist_ok=True)
    n = len(labels)
    pixels = rows * cols
    index_lines = []
    for start in range(0, n, per_file):
        end = min(start + per_file, n) - 1
        count = end - start + 1
        name = "cache_%08d_%08d.npy" % (start, end)
        x = npy_record("|u1", (count, 1, rows, cols), images[start * pixels:(end + 1) * pixels])
        y = npy_record("<f4", (count, 1), struct.pack("<%df" % count, *labels[start:end + 1]))
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(x + y)
        index_lines.append("%s,%d\n" % (name, count))
    with open(os.path.join(outdir, "cache_index.csv"), "w") as f:
        f.writelines(index_lines)
    with open(os.path.join(outdir, "cache_info.csv"), "w") as f:
        f.write("x\ny\n")
    with open(os.path.join(outdir, "order.csv"), "w") as f:
        f.writelines("%d,%d\n" % (i, i) for i in range(n))


def png_gray(rows, cols, pixels):
    raw = b"".join(b"\x00" + pixels[r * cols:(r + 1) * cols] for r in range(rows))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", cols, rows, 8, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def write_csv(outdir, split, images, labels, rows, cols):
    folder = os.path.join(outdir, split)
    os.makedirs(folder, exist_ok=True)
    pixels = rows * cols
    lines = ["x:image,y:label\n"]
    for i, label in enumerate(labels):
        name = "%s/%05d.png" % (split, i)
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(png_gray(rows, cols, images[i * pixels:(i + 1) * pixels]))
        lines.append("./%s,%d\n" % (name, label))
    with open(os.path.join(outdir, split + ".csv"), "w") as f:
        f.writelines(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", help="output directory")
    ap.add_argument("--source", default=DEFAULT_SRC, help="folder with the IDX .gz files (default %(default)s)")
    ap.add_argument("--format", choices=["cache", "csv"], default="cache")
    ap.add_argument("--samples-per-file", type=int, default=100, help="cache samples per .npy file (upstream: 100)")
    ap.add_argument("--limit", type=int, default=0, help="keep only the first N samples of each split")
    args = ap.parse_args()
    for split, prefix in (("train", "train"), ("test", "t10k")):
        (n, rows, cols), images = read_idx(os.path.join(args.source, prefix + "-images-idx3-ubyte.gz"))
        (n_labels,), labels = read_idx(os.path.join(args.source, prefix + "-labels-idx1-ubyte.gz"))
        if n != n_labels:
            sys.exit("%s: %d images but %d labels" % (split, n, n_labels))
        if args.limit > 0:
            n = min(n, args.limit)
            images, labels = images[:n * rows * cols], labels[:n]
        labels = list(labels)
        if args.format == "cache":
            write_cache(os.path.join(args.outdir, split + ".cache"), images, labels, rows, cols, args.samples_per_file)
        else:
            write_csv(args.outdir, split, images, labels, rows, cols)
        print("%s: %d samples -> %s" % (split, n, args.outdir))


if __name__ == "__main__":
    main()
