"""PyTorch twin of bench/bench_engine.cpp: the same networks, Adam, random data, 2 threads.
With "export DIR" as arguments it writes the inference models as ONNX (lenet_b1.onnx, small_resnet_b32.onnx)
for the ONNX Runtime anchor (scripts/ort/ort_bench.js) instead."""
import sys
import time

import torch
import torch.nn as tnn
import torch.nn.functional as F

# argv is this script's only when it runs as the main program (bench_gpu_torch.py imports the networks).
MAIN = __name__ == "__main__"
if MAIN:
    torch.set_num_threads(2)
SECONDS = float(sys.argv[1]) if MAIN and len(sys.argv) > 1 and sys.argv[1] != "export" else 3.0
ONLY = sys.argv[2] if MAIN and len(sys.argv) > 2 else ""


class LeNet(tnn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = tnn.Conv2d(1, 16, 5), tnn.Conv2d(16, 16, 5)
        self.f1, self.f2 = tnn.Linear(256, 50), tnn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.c1(x), 2))
        x = F.relu(F.max_pool2d(self.c2(x), 2))
        return self.f2(F.relu(self.f1(x.flatten(1))))


class MLP(tnn.Module):
    def __init__(self):
        super().__init__()
        self.l = tnn.Sequential(tnn.Linear(784, 1000), tnn.ReLU(), tnn.Linear(1000, 1000), tnn.ReLU(),
                                tnn.Linear(1000, 10))

    def forward(self, x):
        return self.l(x)


class Block(tnn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = tnn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = tnn.BatchNorm2d(cout)
        self.c2 = tnn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = tnn.BatchNorm2d(cout)
        self.short = None
        if stride != 1 or cin != cout:
            self.short = tnn.Sequential(tnn.Conv2d(cin, cout, 1, stride, bias=False), tnn.BatchNorm2d(cout))

    def forward(self, x):
        r = self.b2(self.c2(F.relu(self.b1(self.c1(x)))))
        return F.relu(r + (x if self.short is None else self.short(x)))


class SmallResNet(tnn.Module):
    def __init__(self):
        super().__init__()
        self.stem = tnn.Sequential(tnn.Conv2d(3, 32, 3, 1, 1, bias=False), tnn.BatchNorm2d(32), tnn.ReLU())
        self.blocks = tnn.Sequential(Block(32, 32, 1), Block(32, 64, 2), Block(64, 64, 1), Block(64, 64, 1))
        self.fc = tnn.Linear(64, 10)

    def forward(self, x):
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class ResNet20(tnn.Module):
    """CIFAR ResNet-20 as bench_models.cpp builds it: 3 stages of 3 blocks (16, 32, 64), 1x1 projections."""

    def __init__(self):
        super().__init__()
        self.stem = tnn.Sequential(tnn.Conv2d(3, 16, 3, 1, 1, bias=False), tnn.BatchNorm2d(16), tnn.ReLU())
        blocks, cin = [], 16
        for stage, cout in enumerate((16, 32, 64)):
            for b in range(3):
                blocks.append(Block(cin, cout, 2 if stage > 0 and b == 0 else 1))
                cin = cout
        self.blocks = tnn.Sequential(*blocks)
        self.fc = tnn.Linear(64, 10)

    def forward(self, x):
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


def time_step(step):
    for _ in range(3):
        step()
    best = 1e30
    for _ in range(3):
        n, t0 = 0, time.perf_counter()
        while True:
            step()
            n += 1
            el = time.perf_counter() - t0
            if el >= SECONDS / 3:
                break
        best = min(best, el / n)
    return best


def train(name, model, shape, batch):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def step():
        x = torch.rand((batch,) + shape)
        y = torch.randint(0, 10, (batch,))
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()

    s = time_step(step)
    print(f"train {name:<14} batch {batch:4d}  {batch / s:10.1f} images/s", flush=True)


def infer(name, model, shape, batch):
    model.eval()
    x = torch.rand((batch,) + shape)
    with torch.no_grad():
        s = time_step(lambda: model(x))
    if batch == 1:
        print(f"infer {name:<14} batch    1  {s * 1e3:10.4f} ms", flush=True)
    else:
        print(f"infer {name:<14} batch {batch:4d}  {batch / s:10.1f} images/s", flush=True)


def want(k):
    return not ONLY or ONLY == k


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "export":
        for name, model, shape in (("lenet_b1", LeNet(), (1, 1, 28, 28)),
                                   ("small_resnet_b32", SmallResNet(), (32, 3, 32, 32))):
            model.eval()
            torch.onnx.export(model, torch.rand(shape), f"{sys.argv[2]}/{name}.onnx", opset_version=13)
        sys.exit(0)

    if want("lenet"):
        train("lenet", LeNet(), (1, 28, 28), 64)
        train("lenet", LeNet(), (1, 28, 28), 128)
        infer("lenet", LeNet(), (1, 28, 28), 1)
    if want("mlp"):
        train("mlp", MLP(), (784,), 128)
    if want("resnet"):
        train("small_resnet", SmallResNet(), (3, 32, 32), 32)
        infer("small_resnet", SmallResNet(), (3, 32, 32), 32)
    if ONLY == "resnet20":
        train("resnet20", ResNet20(), (3, 32, 32), 128)
    if ONLY == "resnet18":
        import torchvision
        train("resnet18_224", torchvision.models.resnet18(), (3, 224, 224), 32)
