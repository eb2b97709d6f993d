"""Writes torchvision models (random weights, eval mode) as ONNX files for scripts/bench_infer.sh:
<name>_b<batch>.onnx in DIR for resnet18, mobilenet_v2, efficientnet_b0 and squeezenet1_1 at 3x224x224.
Usage: /usr/bin/python3 scripts/export_torchvision.py DIR [batch ...]   (batches default: 1 32)"""
import sys

import torch
import torchvision

NAMES = ["resnet18", "mobilenet_v2", "efficientnet_b0", "squeezenet1_1"]


def main():
    out = sys.argv[1]
    batches = [int(b) for b in sys.argv[2:]] or [1, 32]
    torch.manual_seed(0)
    for name in NAMES:
        model = getattr(torchvision.models, name)().eval()
        for batch in batches:
            path = f"{out}/{name}_b{batch}.onnx"
            with torch.no_grad():
                torch.onnx.export(model, torch.rand(batch, 3, 224, 224), path, opset_version=13,
                                  input_names=["input"], output_names=["output"])
            print(path)


if __name__ == "__main__":
    main()
