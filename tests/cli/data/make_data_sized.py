#!/usr/bin/python3
# Makes small PyTorch 1.13 exports (opset 13, dynamic axes) whose outputs' sizes follow the data, an input for
# each and ONNX Runtime's outputs (float32 raw; int64 indices as floats). Run from tests/cli/data with
# onnxruntime-node:
#   nonzero.onnx        torch.nonzero(x > 0.5): NonZero then Transpose             (nonzero_3x4*)
#   nms.onnx            torchvision.ops.nms(boxes, scores, 0.5): NMS, Gather, Squeeze (nms_20*)
#   masked_select.onnx  torch.masked_select(x, x > 0): NonZero, Transpose, GatherND  (masked_select_4x3*)
import os
import subprocess
import sys

import numpy as np
import torch
import torchvision

ORT_RUN = sys.argv[1] if len(sys.argv) > 1 else "../../../scripts/ort/ort_run.js"


class NonZero(torch.nn.Module):
    def forward(self, x):
        return torch.nonzero(x > 0.5)


class Nms(torch.nn.Module):
    def forward(self, boxes, scores):
        return torchvision.ops.nms(boxes, scores, 0.5)


class MaskedSelect(torch.nn.Module):
    def forward(self, x):
        return torch.masked_select(x, x > 0)


def make(name, module, inputs, axes, tag):
    names = list(axes)
    torch.onnx.export(module, tuple(torch.from_numpy(x) for x in inputs), f"{name}.onnx", opset_version=13,
                      input_names=names, dynamic_axes=axes)
    files = []
    for n, x in zip(names, inputs):
        files.append(f"{name}_{tag}{'_' + n if len(names) > 1 else ''}.npy")
        np.save(files[-1], x)
    subprocess.run(["node", ORT_RUN, "run", f"{name}.onnx", "ort_out"] + files, check=True)
    np.load("ort_out_0.npy").astype("<f4").tofile(f"{name}_{tag}_expected.bin")
    os.remove("ort_out_0.npy")


rng = np.random.RandomState(3)
make("nonzero", NonZero(), [rng.uniform(0, 1, (3, 4)).astype(np.float32)], {"x": {0: "n", 1: "m"}}, "3x4")
xy = rng.uniform(0, 50, (20, 2)).astype(np.float32)
boxes = np.concatenate([xy, xy + 5 + rng.uniform(0, 20, (20, 2)).astype(np.float32)], axis=1)
make("nms", Nms(), [boxes, rng.uniform(0, 1, 20).astype(np.float32)], {"boxes": {0: "n"}, "scores": {0: "n"}},
     "20")
make("masked_select", MaskedSelect(), [rng.normal(size=(4, 3)).astype(np.float32)], {"x": {0: "n"}}, "4x3")
