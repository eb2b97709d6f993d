#!/usr/bin/env python3
"""PyTorch companion of bench_train.sh: trains the same LeNet / MLP as sample_models/fashion_mnist_lenet on
Fashion-MNIST preloaded in memory (Adam 1e-3, batch 128, shuffled, 468 iterations = 1 epoch, then the
test-set error; --batch, --iterations and --limit change the run), with torch.set_num_threads(2). Prints one line: model, images/s, seconds, test accuracy."""
import argparse
import gzip
import os
import struct
import sys
import time

import torch

SRC = "/usr/share/datasets/fashion-mnist"


def idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = struct.unpack_from(">" + "I" * ndim, data, 4)
    return dims, data[4 + 4 * ndim:]


def load(prefix):
    (n, rows, cols), images = idx(os.path.join(SRC, prefix + "-images-idx3-ubyte.gz"))
    _, labels = idx(os.path.join(SRC, prefix + "-labels-idx1-ubyte.gz"))
    x = torch.frombuffer(bytearray(images), dtype=torch.uint8).reshape(n, 1, rows, cols).float() / 255.0
    y = torch.frombuffer(bytearray(labels), dtype=torch.uint8).long()
    return x, y


def lenet():
    return torch.nn.Sequential(
        torch.nn.Conv2d(1, 16, 5), torch.nn.MaxPool2d(2), torch.nn.ReLU(),
        torch.nn.Conv2d(16, 16, 5), torch.nn.MaxPool2d(2), torch.nn.ReLU(), torch.nn.Flatten(),
        torch.nn.Linear(256, 50), torch.nn.ReLU(), torch.nn.Linear(50, 10))


def mlp():
    return torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("model", choices=["lenet", "mlp"])
    ap.add_argument("--iterations", type=int, default=468)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--limit", type=int, default=0, help="keep only the first N training images")
    args = ap.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(0)
    x, y = load("train")
    if args.limit:
        x, y = x[:args.limit], y[:args.limit]
    xt, yt = load("t10k")
    net = lenet() if args.model == "lenet" else mlp()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8)
    loss_fn = torch.nn.CrossEntropyLoss()
    start = time.perf_counter()
    perm = torch.randperm(x.shape[0])
    pos = 0
    for _ in range(args.iterations):
        if pos + args.batch > x.shape[0]:
            perm, pos = torch.randperm(x.shape[0]), 0
        index = perm[pos:pos + args.batch]
        pos += args.batch
        opt.zero_grad()
        loss = loss_fn(net(x[index]), y[index])
        loss.backward()
        opt.step()
    with torch.no_grad():
        correct = sum(int((net(xt[i:i + 100]).argmax(1) == yt[i:i + 100]).sum()) for i in range(0, xt.shape[0], 100))
    seconds = time.perf_counter() - start
    images = args.iterations * args.batch
    print("torch %s: %.0f images/s (%d images in %.1f s, test accuracy %.4f)" %
          (args.model, images / seconds, images, seconds, correct / xt.shape[0]))


if __name__ == "__main__":
    sys.exit(main())
