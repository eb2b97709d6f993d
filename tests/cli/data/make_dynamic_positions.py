#!/usr/bin/python3
# Makes dynamic_positions.onnx (PyTorch 1.13 export, opset 17, batch and sequence axes dynamic: a position table
# sliced to the sequence and a causal mask of ones (sequence, sequence), constants whose sizes follow the input),
# its input at (2, 5, 4) and ONNX Runtime's output for it (*_expected.bin, float32 raw). Run from tests/cli/data
# with onnxruntime-node.
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

ORT_RUN = sys.argv[1] if len(sys.argv) > 1 else "../../../scripts/ort/ort_run.js"


class CausalWithPositions(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Parameter(torch.randn(16, 4))

    def forward(self, x):
        n = x.shape[1]
        h = x + self.pos[:n]
        mask = torch.triu(torch.ones(n, n), diagonal=1)
        a = torch.softmax(h @ h.transpose(-1, -2) - 1e4 * mask, dim=-1)
        return a @ h


torch.manual_seed(0)
torch.onnx.export(CausalWithPositions().eval(), (torch.randn(1, 3, 4),), "dynamic_positions.onnx", opset_version=17,
                  input_names=["x"], output_names=["y"],
                  dynamic_axes={"x": {0: "batch", 1: "sequence"}, "y": {0: "batch", 1: "sequence"}})
np.save("dynamic_positions_2x5x4.npy", np.random.RandomState(7).uniform(-1, 1, (2, 5, 4)).astype(np.float32))
subprocess.run(["node", ORT_RUN, "run", "dynamic_positions.onnx", "ort_out", "dynamic_positions_2x5x4.npy"],
               check=True)
np.load("ort_out_0.npy").astype("<f4").tofile("dynamic_positions_2x5x4_expected.bin")
os.remove("ort_out_0.npy")
