#!/usr/bin/python3
# Real-exporter check: small torch models exported by PyTorch at opsets 11, 13 and 17, imported by nncli.
#
#   torch_zoo.py NNCLI ORT_RUN_JS MODEL [OPSET...]
# For each opset: torch.onnx.export (random weights, fixed seed) into a temporary folder, ONNX Runtime runs the
# export (the reference), `nncli infer` runs it (import + engine) and must match; then `nncli convert` writes an
# NNP and exports it back to ONNX at the same opset, and ONNX Runtime must give the same outputs on that file.
# Needs python3-torch/python3-torchvision (Debian) and onnxruntime-node (scripts/setup_ort.sh); exits 77 when
# any is missing. Nothing is written outside the temporary folder.
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import torch
    import torch.nn as nn
except ImportError as e:
    print(f"SKIP: {e} (install python3-torch from Debian)")
    sys.exit(77)


class Gather(nn.Module):
    def forward(self, x):
        idx = torch.argsort(x, dim=1)[:, :3]
        return torch.gather(x, 1, idx) + x.argmax(dim=1, keepdim=True).float()


class Einsum(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(8, 5))

    def forward(self, x):
        return torch.einsum("bi,ij->bj", x, self.w)


class Recurrent(nn.Module):
    def __init__(self, cell, **kw):
        super().__init__()
        self.rnn = cell(input_size=6, hidden_size=5, batch_first=True, **kw)

    def forward(self, x):
        y, _ = self.rnn(x)
        return y


class Tiny(nn.Module):  # conv, batch norm, pooling, flatten, linear
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))

    def forward(self, x):
        return self.body(x)


class Upsample(nn.Module):
    def __init__(self, mode, align):
        super().__init__()
        self.mode, self.align = mode, align

    def forward(self, x):
        return nn.functional.interpolate(x, scale_factor=2, mode=self.mode, align_corners=self.align)


def make(name):
    torch.manual_seed(0)
    if name.endswith("_dynamic"):  # exported with a symbolic batch, run at batch 3
        model, shape = make(name[:-len("_dynamic")])
        return model, (3,) + tuple(shape[1:])
    if name == "mlp":
        return nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4), nn.Softmax(dim=-1)), (2, 8)
    if name == "tiny_cnn":
        return Tiny().eval(), (1, 3, 16, 16)
    if name == "layer_norm":
        return nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8)), (2, 3, 8)
    if name == "transformer":
        layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
        return layer.eval(), (1, 4, 8)
    if name == "lstm":
        return Recurrent(nn.LSTM), (2, 5, 6)
    if name == "lstm_bidirectional":
        return Recurrent(nn.LSTM, bidirectional=True), (2, 5, 6)
    if name == "gru":
        return Recurrent(nn.GRU), (2, 5, 6)
    if name == "rnn_relu":
        return Recurrent(nn.RNN, nonlinearity="relu"), (2, 5, 6)
    if name == "gather_argmax":
        return Gather(), (2, 8)
    if name == "einsum":
        return Einsum(), (3, 8)
    if name == "bicubic":
        return Upsample("bicubic", False), (1, 2, 5, 5)
    if name == "bilinear_align":
        return Upsample("bilinear", True), (1, 2, 5, 5)
    if name == "resnet18":
        import torchvision
        return torchvision.models.resnet18(num_classes=10).eval(), (1, 3, 64, 64)
    raise SystemExit(f"unknown model {name}")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, (p.stdout + p.stderr).strip()


def outputs(prefix_dir, prefix):
    files = sorted(f for f in os.listdir(prefix_dir) if f.startswith(prefix + "_") and f.endswith(".npy"))
    return [np.load(os.path.join(prefix_dir, f)) for f in files]


def compare(what, got, want, atol=1e-4, rtol=1e-4):
    if len(got) != len(want):
        return [f"{what}: {len(got)} outputs, expected {len(want)}"]
    bad = []
    for j, (g, w) in enumerate(zip(got, want)):
        if g.size != w.size:
            bad.append(f"{what}: output {j} has {g.size} values, expected {w.size}")
            continue
        err = np.abs(g.reshape(-1).astype(np.float64) - w.reshape(-1))
        if not np.all(err <= atol + rtol * np.abs(w.reshape(-1))):
            bad.append(f"{what}: output {j} max abs error {err.max():.3g}")
    return bad


def check(nncli, ort_js, name, opset, work):
    model, shape = make(name)
    x = torch.rand(*shape) * 2 - 1
    onnx_path = os.path.join(work, f"{name}_{opset}.onnx")
    # Exported with autograd on: PyTorch's fused inference path for transformer layers has no ONNX symbolic.
    dynamic = {"x": {0: "batch"}} if name.endswith("_dynamic") else None
    torch.onnx.export(model, (x,), onnx_path, opset_version=opset, input_names=["x"], dynamic_axes=dynamic)
    inp = os.path.join(work, "x.npy")
    np.save(inp, x.numpy().astype(np.float32))
    rc, out = run(["node", ort_js, "run", onnx_path, os.path.join(work, "ort"), inp])
    if rc:
        return [f"opset {opset}: ONNX Runtime failed on the torch export: {out}"]
    want = outputs(work, "ort")
    rc, out = run([nncli, "-q", "infer", "-b", str(shape[0]), "--format", "npy", "-o", os.path.join(work, "nn"),
                   onnx_path, inp])
    if rc:
        return [f"opset {opset}: nncli infer exited {rc}: {out}"]
    bad = compare(f"opset {opset} import", outputs(work, "nn"), want)
    nnp = os.path.join(work, f"{name}_{opset}.nnp")
    back = os.path.join(work, f"{name}_{opset}_back.onnx")
    for cmd in ([nncli, "-q", "convert", onnx_path, nnp],
                [nncli, "-q", "convert", "-d", f"opset_{opset}", "-b", str(shape[0]), nnp, back]):
        rc, out = run(cmd)
        if rc:
            return bad + [f"opset {opset}: {' '.join(cmd[2:3])} to {os.path.basename(cmd[-1])} exited {rc}: {out}"]
    rc, out = run(["node", ort_js, "run", back, os.path.join(work, "back"), inp])
    if rc:
        return bad + [f"opset {opset}: ONNX Runtime failed on the round trip export: {out}"]
    return bad + compare(f"opset {opset} round trip", outputs(work, "back"), want)


def main():
    if len(sys.argv) < 4:
        raise SystemExit("usage: torch_zoo.py NNCLI ORT_RUN_JS MODEL [OPSET...]")
    nncli, ort_js, name = sys.argv[1:4]
    opsets = [int(o) for o in sys.argv[4:]] or [11, 13, 17]
    ort_dir = os.environ.get("NN_ORT_DIR", os.path.expanduser("~/.cache/nncli/ort"))
    if run(["node", "--version"])[0] or not os.path.isdir(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
        print("SKIP: node or onnxruntime-node is missing (scripts/setup_ort.sh)")
        return 77
    problems = []
    for opset in opsets:
        with tempfile.TemporaryDirectory() as work:
            problems += check(nncli, ort_js, name, opset, work)
    for p in problems:
        print(f"FAIL: {name}: {p}")
    if not problems:
        print(f"OK: {name} at opsets {opsets}: import and round trip match ONNX Runtime")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
