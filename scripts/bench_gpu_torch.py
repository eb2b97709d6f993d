"""PyTorch twin of bench/bench_gpu.cpp on the GPU: LeNet (batch 64), the small ResNet (batch 32) and ResNet-18
(3x224x224, batch 64) trained with Adam, and inference at batch 1 and 64. argv: float|half [seconds] [filter].
float: plain fp32 (TF32 off, as nncli's float kernels); half: autocast fp16 with GradScaler (fp32 master
weights, dynamic loss scaling), nnabla's cudnn:half recipe. Every step ends with torch.cuda.synchronize()."""
import sys
import time

import torch
import torch.nn as tnn
import torch.nn.functional as F

from bench_engine_torch import Block, LeNet, SmallResNet

MODE = sys.argv[1] if len(sys.argv) > 1 else "float"
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
ONLY = sys.argv[3] if len(sys.argv) > 3 else ""
HALF = MODE == "half"
DEV = torch.device("cuda")
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_tf32 = False


class ResNet18(tnn.Module):
    def __init__(self):
        super().__init__()
        self.stem = tnn.Sequential(tnn.Conv2d(3, 64, 7, 2, 3, bias=False), tnn.BatchNorm2d(64), tnn.ReLU(),
                                   tnn.MaxPool2d(3, 2, 1))
        layers, cin = [], 64
        for stage in range(4):
            cout = 64 << stage
            for block in range(2):
                layers.append(Block(cin, cout, 2 if stage > 0 and block == 0 else 1))
                cin = cout
        self.blocks = tnn.Sequential(*layers)
        self.fc = tnn.Linear(512, 1000)

    def forward(self, x):
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


def time_step(step):
    for _ in range(5):
        step()
    torch.cuda.synchronize()
    n, t0 = 0, time.perf_counter()
    while True:
        step()
        torch.cuda.synchronize()
        n += 1
        el = time.perf_counter() - t0
        if el >= SECONDS:
            return el / n


def train(name, model, shape, batch, classes):
    model = model.to(DEV)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.cuda.amp.GradScaler(enabled=HALF)
    x = torch.rand((batch,) + shape, device=DEV)
    y = torch.randint(0, classes, (batch,), device=DEV)

    def step():
        opt.zero_grad()
        with torch.autocast("cuda", dtype=torch.float16, enabled=HALF):
            loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()

    s = time_step(step)
    print(f"train {name:<12} batch {batch:4d}  {batch / s:10.1f} images/s", flush=True)


def infer(name, model, shape, batch):
    model = model.to(DEV).eval()
    x = torch.rand((batch,) + shape, device=DEV)

    def step():
        with torch.no_grad(), torch.autocast("cuda", dtype=torch.float16, enabled=HALF):
            model(x)

    s = time_step(step)
    print(f"infer {name:<12} batch {batch:4d}  {s * 1e3:10.4f} ms  {batch / s:10.1f} images/s", flush=True)


def want(k):
    return not ONLY or k in ONLY


print(f"context torch {torch.__version__} {MODE} on {torch.cuda.get_device_name()}")
if want("lenet"):
    train("lenet", LeNet(), (1, 28, 28), 64, 10)
    infer("lenet", LeNet(), (1, 28, 28), 1)
    infer("lenet", LeNet(), (1, 28, 28), 64)
if want("small_resnet"):
    train("small_resnet", SmallResNet(), (3, 32, 32), 32, 10)
    infer("small_resnet", SmallResNet(), (3, 32, 32), 1)
    infer("small_resnet", SmallResNet(), (3, 32, 32), 64)
if want("resnet18"):
    train("resnet18", ResNet18(), (3, 224, 224), 64, 1000)
    infer("resnet18", ResNet18(), (3, 224, 224), 1)
    infer("resnet18", ResNet18(), (3, 224, 224), 64)
