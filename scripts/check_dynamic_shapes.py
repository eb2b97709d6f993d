#!/usr/bin/python3
# Models whose shapes are known only at run time, exported by PyTorch, run by nncli and ONNX Runtime side by side.
#
#   check_dynamic_shapes.py NNCLI [MODEL...]      (default: every model below; prints one table row per model)
# Each model is exported with torch.onnx.export (random weights, fixed seed, its dynamic axes) into a temporary
# folder; ONNX Runtime (scripts/ort/ort_run.js) and `nncli infer` run it at each of its input shapes, and the
# outputs must agree: same shapes, values within 1e-4 (relative 1e-4). A model nncli refuses shows nncli's first
# error line. Without model names, torchvision's detectors follow (scripts/check_detectors.py, a table of their own).
# Exit 0 when every model agrees, 1 otherwise, 77 without python3-torch or onnxruntime-node.
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import torch
    import torch.nn as nn
    import torchvision
except ImportError as e:
    print(f"SKIP: {e} (install python3-torch and python3-torchvision from Debian)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_JS = os.path.join(HERE, "ort", "ort_run.js")


class TopK(nn.Module):
    def forward(self, x):
        return torch.topk(x, 5)


class NonZero(nn.Module):
    def forward(self, x):
        return torch.nonzero(x > 0.5)


class Nms(nn.Module):
    def forward(self, boxes, scores):
        return torchvision.ops.nms(boxes, scores, 0.5)


class MaskedSelect(nn.Module):
    def forward(self, x):
        return torch.masked_select(x, x > 0)


class EncoderClassifier(nn.Module):  # nn.TransformerEncoder, 2 layers, d=32, mean over the sequence
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.e = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(32, 5)

    def forward(self, x):
        return self.head(self.e(x).mean(dim=1))


class GptBlock(nn.Module):  # embedding, causal mask, pre-norm attention and GELU MLP, tied head
    def __init__(self, vocab=50, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(64, d) * 0.1)
        self.ln1, self.ln2, self.lnf = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, tokens):
        n = tokens.shape[1]
        h = self.emb(tokens) + self.pos[:n]
        mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
        a = self.ln1(h)
        h = h + self.attn(a, a, a, attn_mask=mask, need_weights=False)[0]
        h = h + self.mlp(self.ln2(h))
        return self.lnf(h) @ self.emb.weight.t()


class BertEncoder(nn.Module):  # token, position and token-type embeddings, attention mask, 2 encoder layers
    def __init__(self, vocab=60, d=32):
        super().__init__()
        self.tok, self.typ = nn.Embedding(vocab, d), nn.Embedding(2, d)
        self.pos = nn.Parameter(torch.randn(64, d) * 0.1)
        layer = nn.TransformerEncoderLayer(d_model=d, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.e = nn.TransformerEncoder(layer, num_layers=2)
        self.pool = nn.Linear(d, d)

    def forward(self, input_ids, attention_mask, token_type_ids):
        n = input_ids.shape[1]
        h = self.tok(input_ids) + self.typ(token_type_ids) + self.pos[:n]
        h = self.e(h, src_key_padding_mask=attention_mask == 0)
        return torch.tanh(self.pool(h[:, 0]))


def tokens(shape, vocab):
    return torch.randint(0, vocab, shape)


def boxes_and_scores(n):
    xy = torch.rand(n, 2) * 50
    return torch.cat([xy, xy + 5 + torch.rand(n, 2) * 20], dim=1), torch.rand(n)


# name -> (module, input names, dynamic axes, [inputs at each shape]); the first set is the export's.
def models():
    def bert_inputs(b, s):
        mask = torch.ones(b, s, dtype=torch.int64)
        mask[:, s - 1] = 0
        return [tokens((b, s), 60), mask, torch.randint(0, 2, (b, s))]
    return {
        "topk": (TopK(), ["x"], {"x": {0: "n"}}, [[torch.rand(2, 10)], [torch.rand(3, 10)], [torch.rand(1, 10)]]),
        "nonzero": (NonZero(), ["x"], {"x": {0: "n", 1: "m"}}, [[torch.rand(3, 4)], [torch.rand(5, 2)],
                                                                 [torch.rand(1, 7)]]),
        "nms": (Nms(), ["boxes", "scores"], {"boxes": {0: "n"}, "scores": {0: "n"}},
                [list(boxes_and_scores(20)), list(boxes_and_scores(50)), list(boxes_and_scores(7))]),
        "masked_select": (MaskedSelect(), ["x"], {"x": {0: "n"}}, [[torch.randn(4, 3)], [torch.randn(6, 3)],
                                                                    [torch.randn(1, 3)]]),
        "transformer_encoder": (EncoderClassifier().eval(), ["x"], {"x": {0: "batch", 1: "sequence"}},
                                [[torch.randn(1, 8, 32)], [torch.randn(2, 16, 32)], [torch.randn(4, 5, 32)]]),
        "bert_encoder": (BertEncoder().eval(), ["input_ids", "attention_mask", "token_type_ids"],
                         {k: {0: "batch", 1: "sequence"} for k in ["input_ids", "attention_mask", "token_type_ids"]},
                         [bert_inputs(1, 8), bert_inputs(2, 16), bert_inputs(3, 5)]),
        "gpt_decoder": (GptBlock().eval(), ["tokens"], {"tokens": {0: "batch", 1: "sequence"}},
                        [[tokens((1, 8), 50)], [tokens((2, 16), 50)], [tokens((4, 5), 50)]]),
    }


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, (p.stdout + p.stderr).strip()


def outputs(folder, prefix):
    files = sorted((f for f in os.listdir(folder) if f.startswith(prefix + "_") and f.endswith(".npy")),
                   key=lambda f: int(f[len(prefix) + 1:-4]))
    return [np.load(os.path.join(folder, f)) for f in files]


def agree(got, want):
    if len(got) != len(want):
        return f"{len(got)} outputs, ONNX Runtime {len(want)}"
    for j, (g, w) in enumerate(zip(got, want)):
        if g.size != w.size:
            return f"output {j} has shape {list(g.shape)}, ONNX Runtime's {list(w.shape)}"
        err = np.abs(g.reshape(-1).astype(np.float64) - w.reshape(-1).astype(np.float64))
        if err.size and not np.all(err <= 1e-4 + 1e-4 * np.abs(w.reshape(-1).astype(np.float64))):
            return f"output {j} differs by up to {err.max():.3g}"
    return ""


def check(nncli, name, spec, work):
    module, names, axes, shapes = spec
    path = os.path.join(work, name + ".onnx")
    torch.manual_seed(0)
    torch.onnx.export(module, tuple(shapes[0]), path, opset_version=17, input_names=names, dynamic_axes=axes)
    cells = []
    for k, inputs in enumerate(shapes):
        files = []
        for i, x in enumerate(inputs):
            files.append(os.path.join(work, f"in{k}_{i}.npy"))
            np.save(files[-1], x.numpy())
        shape = " ".join("x".join(map(str, x.shape)) for x in inputs)
        rc, out = run(["node", ORT_JS, "run", path, os.path.join(work, f"ort{k}")] + files)
        if rc:
            cells.append(f"{shape}: ONNX Runtime failed: {out.splitlines()[-1]}")
            continue
        rc, out = run([nncli, "-q", "infer", "--format", "npy", "-o", os.path.join(work, f"nn{k}"), path] + files)
        if rc:
            cells.append(f"{shape}: exit {rc}: {out.splitlines()[-1].replace(path, name + '.onnx')[:200]}")
            continue
        diff = agree(outputs(work, f"nn{k}"), outputs(work, f"ort{k}"))
        cells.append(f"{shape}: " + (diff or "equal"))
    return cells


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: check_dynamic_shapes.py NNCLI [MODEL...]")
    ort_dir = os.environ.get("NN_ORT_DIR", os.path.expanduser("~/.cache/nncli/ort"))
    if run(["node", "--version"])[0] or not os.path.isdir(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
        print("SKIP: node or onnxruntime-node is missing (scripts/setup_ort.sh)")
        return 77
    all_models = models()
    chosen = sys.argv[2:] or list(all_models)
    failed = 0
    print("| model (export, opset 17) | input shapes: nncli against ONNX Runtime |\n|---|---|")
    for name in chosen:
        with tempfile.TemporaryDirectory() as work:
            cells = check(sys.argv[1], name, all_models[name], work)
        failed += any(not c.endswith("equal") for c in cells)
        results = [c.split(": ", 1)[1] for c in cells]
        if len(set(results)) == 1 and results[0] != "equal":  # one refusal at every shape: say it once
            cells = [" ".join(c.split(": ", 1)[0] for c in cells) + ": " + results[0]]
        print(f"| {name} | " + "; ".join(cells) + " |")
    if not sys.argv[2:]:  # torchvision's detectors: their own table (scripts/check_detectors.py)
        print(flush=True)
        failed += subprocess.run([sys.executable, os.path.join(HERE, "check_detectors.py"), sys.argv[1]]).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
