#!/usr/bin/python3
# Makes nonzero.onnx (PyTorch 1.13 export of torch.nonzero(x > 0.5), opset 13, both axes of x dynamic: NonZero
# then Transpose), an input of shape (3, 4) and ONNX Runtime's output for it (nonzero_expected.bin, float32 raw of
# the int64 indices). Run from tests/cli/data with onnxruntime-node.
import os
import subprocess
import sys

import numpy as np
import torch

ORT_RUN = sys.argv[1] if len(sys.argv) > 1 else "../../../scripts/ort/ort_run.js"


class NonZero(torch.nn.Module):
    def forward(self, x):
        return torch.nonzero(x > 0.5)


torch.onnx.export(NonZero(), (torch.rand(2, 2),), "nonzero.onnx", opset_version=13, input_names=["x"],
                  dynamic_axes={"x": {0: "n", 1: "m"}})
np.save("nonzero_3x4.npy", np.random.RandomState(3).uniform(0, 1, (3, 4)).astype(np.float32))
subprocess.run(["node", ORT_RUN, "run", "nonzero.onnx", "ort_out", "nonzero_3x4.npy"], check=True)
np.load("ort_out_0.npy").astype("<f4").tofile("nonzero_3x4_expected.bin")
os.remove("ort_out_0.npy")
