#!/usr/bin/env python3
"""PyTorch companion of bench_train.sh: trains the same LeNet / MLP as sample_models/fashion_mnist_lenet on
Fashion-MNIST preloaded in memory (Adam 1e-3, batch 128, shuffled, 468 iterations = 1 epoch, then the
test-set error; --batch, --iterations and --limit change the run), with torch.set_num_threads(2). With --csv, the
training images come from an NNC-style CSV of PNG files through a DataLoader of 2 workers that decode them and
augment each (random shift by up to 2 pixels, random left-right flip), as ImageAugmentation does in nncli's network.
Prints one line: model, images/s, seconds, test accuracy."""
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


class CsvImages(torch.utils.data.Dataset):
    """An NNC dataset CSV (header x:image,y:label; image paths relative to the CSV), decoded and augmented."""

    def __init__(self, csv_path):
        from PIL import Image  # noqa: F401 (checked here, used by the workers)
        base = os.path.dirname(os.path.abspath(csv_path))
        with open(csv_path) as f:
            rows = [line.strip().split(",") for line in f.readlines()[1:] if line.strip()]
        self.items = [(os.path.join(base, x), int(y)) for x, y in rows]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        from PIL import Image
        path, label = self.items[i]
        with Image.open(path) as im:
            x = torch.frombuffer(bytearray(im.tobytes()), dtype=torch.uint8).float().div(255).view(1, 28, 28)
        x = torch.nn.functional.pad(x, (2, 2, 2, 2))
        dy, dx = torch.randint(0, 5, (2,)).tolist()
        x = x[:, dy:dy + 28, dx:dx + 28]
        if torch.rand(()) < 0.5:
            x = x.flip(2)
        return x, label


def preloaded_batches(x, y, batch):
    """Endless shuffled batches of the preloaded tensors."""
    perm, pos = torch.randperm(x.shape[0]), 0
    while True:
        if pos + batch > x.shape[0]:
            perm, pos = torch.randperm(x.shape[0]), 0
        index = perm[pos:pos + batch]
        pos += batch
        yield x[index], y[index]


def csv_batches(csv_path, batch):
    """Endless shuffled batches from the CSV through a DataLoader of 2 worker processes."""
    loader = torch.utils.data.DataLoader(CsvImages(csv_path), batch_size=batch, shuffle=True, num_workers=2,
                                         drop_last=True, persistent_workers=True)
    while True:
        for x, y in loader:
            yield x, y


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("model", choices=["lenet", "mlp"])
    ap.add_argument("--iterations", type=int, default=468)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--limit", type=int, default=0, help="keep only the first N training images")
    ap.add_argument("--csv", help="train from this NNC-style CSV of PNG files through a DataLoader (2 workers)")
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
    batches = csv_batches(args.csv, args.batch) if args.csv else preloaded_batches(x, y, args.batch)
    for _ in range(args.iterations):
        xb, yb = next(batches)
        opt.zero_grad()
        loss = loss_fn(net(xb), yb)
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
