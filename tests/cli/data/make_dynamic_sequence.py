#!/usr/bin/python3
# Makes dynamic_sequence.onnx (PyTorch 1.13 export, opset 13, batch and sequence axes dynamic: two-head
# self-attention whose Reshapes are computed from the input's Shape), its inputs at (1, 3, 4) and (2, 5, 4) and
# ONNX Runtime's outputs for them (*_expected.bin, float32 raw). Run from tests/cli/data with onnxruntime-node.
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

ORT_RUN = sys.argv[1] if len(sys.argv) > 1 else "../../../scripts/ort/ort_run.js"


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)

    def forward(self, x):
        b, n = x.shape[0], x.shape[1]
        h = self.linear(x).reshape(b, n, 2, 2).transpose(1, 2)
        a = torch.softmax(h @ h.transpose(-1, -2), dim=-1)
        return (a @ h).transpose(1, 2).reshape(b, n, 4)


torch.manual_seed(0)
torch.onnx.export(TwoHeads().eval(), (torch.randn(1, 3, 4),), "dynamic_sequence.onnx", opset_version=13,
                  input_names=["x"], output_names=["y"],
                  dynamic_axes={"x": {0: "batch", 1: "sequence"}, "y": {0: "batch", 1: "sequence"}})
for shape in [(1, 3, 4), (2, 5, 4)]:
    tag = "x".join(map(str, shape))
    np.save(f"dynamic_sequence_{tag}.npy", np.random.RandomState(len(tag)).uniform(-1, 1, shape).astype(np.float32))
    subprocess.run(["node", ORT_RUN, "run", "dynamic_sequence.onnx", "ort_out", f"dynamic_sequence_{tag}.npy"],
                   check=True)
    np.load("ort_out_0.npy").astype("<f4").tofile(f"dynamic_sequence_{tag}_expected.bin")
    os.remove("ort_out_0.npy")
