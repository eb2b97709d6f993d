#!/usr/bin/python3
# Makes layer_norm_opset14.onnx (PyTorch 1.13 export, opset 14: before opset 17 LayerNorm is written decomposed as
# ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add), three norms: over the last axis, over the last two,
# and without scale and shift; its input (2, 5, 16) as float32 raw and ONNX Runtime's output for it
# (*_expected.bin). Run from tests/cli/data with onnxruntime-node.
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

ORT_RUN = sys.argv[1] if len(sys.argv) > 1 else "../../../scripts/ort/ort_run.js"


class Norms(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)
        self.last = nn.LayerNorm(16)
        self.two = nn.LayerNorm((5, 16), eps=1e-6)
        self.plain = nn.LayerNorm(16, elementwise_affine=False)

    def forward(self, x):
        h = self.last(self.fc(x))
        h = self.two(torch.relu(h) + x)
        return self.plain(h * 2.0)


torch.manual_seed(0)
model = Norms().eval()
with torch.no_grad():  # parameters away from PyTorch's ones and zeros, so that scale and shift matter
    for p in model.parameters():
        p.add_(torch.randn_like(p) * 0.5)
torch.onnx.export(model, (torch.randn(2, 5, 16),), "layer_norm_opset14.onnx", opset_version=14,
                  input_names=["x"], output_names=["y"])
x = np.random.RandomState(5).uniform(-2, 2, (2, 5, 16)).astype(np.float32)
np.save("layer_norm_input.npy", x)
x.astype("<f4").tofile("layer_norm_input.bin")
subprocess.run(["node", ORT_RUN, "run", "layer_norm_opset14.onnx", "ort_out", "layer_norm_input.npy"], check=True)
np.load("ort_out_0.npy").astype("<f4").tofile("layer_norm_expected.bin")
os.remove("ort_out_0.npy")
os.remove("layer_norm_input.npy")
