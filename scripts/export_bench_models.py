# Writes the models users bring for scripts/bench_infer.sh as ONNX files (random weights, fixed seed, eval mode).
"""Usage: /usr/bin/python3 scripts/export_bench_models.py DIR [small|torchvision|all]   (default: all)
small:       squeezenet_nhwc_b1 (a Keras-style SqueezeNet for 32x32 NHWC inputs whose convolutions and poolings
             sit between Transposes as tf2onnx writes them: Transpose(0,3,1,2), Conv, Transpose(0,2,3,1); ReLU,
             channel Concat (axis 3) and the ReduceMean head stay in NHWC), resnet20_b1 (CIFAR ResNet-20, the
             PyTorch definition of bench_engine_torch.py) and transformer_b1/_b32 (nn.TransformerEncoder, BERT-tiny
             sizes: 2 layers, d 128, 2 heads, feed-forward 512, 128 tokens, static shapes, mean-pooled classifier).
torchvision: mobilenet_v3_small, shufflenet_v2_x1_0, regnet_y_400mf, densenet121, googlenet at 3x224x224,
             batch 1 and 32.
Prints each file written."""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_engine_torch import ResNet20  # noqa: E402

TORCHVISION = ["mobilenet_v3_small", "shufflenet_v2_x1_0", "regnet_y_400mf", "densenet121", "googlenet"]


class NhwcConv(nn.Module):
    """tf2onnx's Conv2D: NHWC in, Transpose to NCHW, Conv, Transpose back to NHWC."""

    def __init__(self, cin, cout, k, stride=1, relu=True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride, k // 2)
        self.relu = relu

    def forward(self, x):
        y = self.conv(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)
        return F.relu(y) if self.relu else y


def nhwc_max_pool(x):  # Keras MaxPooling2D(3, 2), padding 'valid'
    return F.max_pool2d(x.permute(0, 3, 1, 2), 3, 2).permute(0, 2, 3, 1)


class Fire(nn.Module):
    def __init__(self, cin, squeeze, expand):
        super().__init__()
        self.s = NhwcConv(cin, squeeze, 1)
        self.e1, self.e3 = NhwcConv(squeeze, expand, 1), NhwcConv(squeeze, expand, 3)

    def forward(self, x):
        s = self.s(x)
        return torch.cat([self.e1(s), self.e3(s)], dim=3)


class SqueezeNetNhwc(nn.Module):
    """Keras-style SqueezeNet 1.1 for 32x32 RGB (10 classes), channels last."""

    def __init__(self):
        super().__init__()
        self.stem = NhwcConv(3, 64, 3)
        self.f2, self.f3 = Fire(64, 16, 64), Fire(128, 16, 64)
        self.f4, self.f5 = Fire(128, 32, 128), Fire(256, 32, 128)
        self.f6, self.f7 = Fire(256, 48, 192), Fire(384, 48, 192)
        self.f8, self.f9 = Fire(384, 64, 256), Fire(512, 64, 256)
        self.head = NhwcConv(512, 10, 1)

    def forward(self, x):
        x = nhwc_max_pool(self.stem(x))
        x = nhwc_max_pool(self.f3(self.f2(x)))
        x = nhwc_max_pool(self.f5(self.f4(x)))
        x = self.f9(self.f8(self.f7(self.f6(x))))
        return F.softmax(self.head(x).mean((1, 2)), dim=1)  # GlobalAveragePooling2D as ReduceMean(1, 2)


class EncoderClassifier(nn.Module):
    def __init__(self, d=128, layers=2, heads=2, ffn=512, classes=10):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d, heads, ffn, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        return self.head(self.encoder(x).mean(dim=1))


def export(model, shape, path):
    model.eval()  # with gradients on: under no_grad nn.TransformerEncoder takes a fused path ONNX cannot write
    torch.onnx.export(model, torch.rand(shape), path, opset_version=13, input_names=["input"], output_names=["output"])
    print(path)


def main():
    out = sys.argv[1]
    which = sys.argv[2] if len(sys.argv) > 2 else "all"
    torch.manual_seed(0)
    if which in ("small", "all"):
        export(SqueezeNetNhwc(), (1, 32, 32, 3), f"{out}/squeezenet_nhwc_b1.onnx")
        export(ResNet20(), (1, 3, 32, 32), f"{out}/resnet20_b1.onnx")
        encoder = EncoderClassifier()
        for batch in (1, 32):
            export(encoder, (batch, 128, 128), f"{out}/transformer_b{batch}.onnx")
    if which in ("torchvision", "all"):
        import torchvision
        for name in TORCHVISION:
            kw = {"aux_logits": False, "init_weights": True} if name == "googlenet" else {}
            model = getattr(torchvision.models, name)(**kw)
            for batch in (1, 32):
                export(model, (batch, 3, 224, 224), f"{out}/{name}_b{batch}.onnx")


if __name__ == "__main__":
    main()
