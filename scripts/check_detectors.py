#!/usr/bin/python3
# torchvision's detection models (SSDlite, Faster R-CNN, RetinaNet, FCOS, Mask R-CNN), exported by PyTorch (opset 11),
# run by nncli and ONNX Runtime side by side.
#
#   check_detectors.py NNCLI [MODEL...]      (default: every model below; prints one table row per model)
# Random weights with a fixed seed leave SSDlite's features ~1e-20 (every score ties), so convolutions are re-drawn
# with a fan-in scale and the classification head scaled (`make`); three smooth images with noise are the inputs,
# plus, for SSDlite, an export with score_thresh 0.99 that keeps no detection. ONNX Runtime (scripts/ort/ort_run.js)
# and `nncli infer` must give the same number of detections and the same (label, score, box) rows: each nncli row
# matched to its own ORT row of the same label, score within 1e-4 (+1e-4 relative) and box corners within 2e-4 of
# the image size (kernels that differ in the last bits move a decoded box by hundredths of a pixel), in any order
# (rows of near-equal score may swap). Mask R-CNN's masks (N, 1, 320, 320) must also agree, each with its matched
# ORT row's: within 1e-4 except on the pixels next to its box's edges (`masks_agree`). Exit 0 when every model
# agrees, 1 otherwise, 77 without torch or ORT.
import os
import sys
import tempfile

try:
    import numpy as np
    import onnx
    import torch
    import torchvision
except ImportError as e:
    print(f"SKIP: {e} (install python3-torch, python3-torchvision and python3-onnx from Debian)")
    sys.exit(77)

from check_dynamic_shapes import ORT_JS, run  # noqa: E402 (the sibling script's runner and ONNX Runtime script)

SIZE = 320

# name -> (torchvision constructor, its keyword arguments, convolution gain, classification head scale)
MODELS = {
    "ssdlite320_mobilenet_v3_large": ("ssdlite320_mobilenet_v3_large", {}, 2.0, 0.3),
    "ssdlite_no_detections": ("ssdlite320_mobilenet_v3_large", {"score_thresh": 0.99}, 2.0, 0.3),
    "fasterrcnn_mobilenet_v3_large_320_fpn": ("fasterrcnn_mobilenet_v3_large_320_fpn",
                                              {"box_score_thresh": 0.0, "rpn_score_thresh": 0.0}, 1.6, 1.0),
    "retinanet_resnet50_fpn": ("retinanet_resnet50_fpn", {"min_size": SIZE, "max_size": SIZE}, 1.6, 0.3),
    "fcos_resnet50_fpn": ("fcos_resnet50_fpn", {"min_size": SIZE, "max_size": SIZE}, 1.6, 0.3),
    # Gain 1.0: at 1.6 its RPN's box deltas reach 250, where float32 rounding (4e-6 relative) moves a proposal by
    # 0.035 px and boxes by 0.2 px.
    "maskrcnn_resnet50_fpn": ("maskrcnn_resnet50_fpn", {"min_size": SIZE, "max_size": SIZE, "box_score_thresh": 0.0,
                                                        "box_detections_per_img": 20}, 1.0, 1.0),
}


def make(constructor, kwargs, conv_gain, head_scale):
    torch.manual_seed(0)
    m = getattr(torchvision.models.detection, constructor)(weights=None, weights_backbone=None, **kwargs).eval()
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for mod in m.modules():
            if isinstance(mod, torch.nn.Conv2d):
                fan_in = mod.weight[0].numel()
                mod.weight.copy_(torch.randn(mod.weight.shape, generator=g) * (conv_gain / fan_in) ** 0.5)
        head = getattr(getattr(m, "head", None), "classification_head", None)
        for p in head.parameters() if head is not None else []:
            p.mul_(head_scale)
    return m


def image(k):
    yy, xx = torch.meshgrid(torch.linspace(0, 1, SIZE), torch.linspace(0, 1, SIZE), indexing="ij")
    g = torch.Generator().manual_seed(10 + k)
    img = torch.stack([torch.sin(xx * (3 + k) * 3.14 + c) * torch.cos(yy * (2 + c) * 3.14) for c in range(3)])
    return img * 0.5 + 0.5 + torch.rand(3, SIZE, SIZE, generator=g) * 0.2


def detections(prefix, labels_at):
    out = [np.load(f"{prefix}_{j}.npy").astype(np.float64) for j in range(3)]
    scores_at = 3 - labels_at  # outputs are boxes, then scores and labels in either order
    return out[0].reshape(-1, 4), out[scores_at].reshape(-1), out[labels_at].reshape(-1)


def masks_agree(got_masks, want_masks, pairs, boxes):
    """Each matched detection's pasted mask: values within 1e-4 (+1e-4 relative) except on the pixels next to its
    box's edges, where a corner that differs in its last bits may round to the neighbouring pixel."""
    worst = 0.0
    for i, j in pairs:
        g, w = got_masks[i].reshape(SIZE, SIZE), want_masks[j].reshape(SIZE, SIZE)
        off = np.abs(g - w) > 1e-4 + 1e-4 * np.abs(w)
        x0, y0, x1, y1 = boxes[j]
        edge = np.zeros_like(off)
        for c in (x0, x1):
            edge[:, max(0, int(np.floor(c)) - 1):int(np.ceil(c)) + 2] = True
        for r in (y0, y1):
            edge[max(0, int(np.floor(r)) - 1):int(np.ceil(r)) + 2, :] = True
        if (off & ~edge).any():
            return f"detection {i}'s mask differs inside its box (max {np.abs(g - w)[~edge].max():.3g})"
        worst = max(worst, float(np.abs(g - w)[~edge].max(initial=0.0)))
    return f"masks equal (max {worst:.2g} off the box edges)"


def agree(got, want, pairs=None):
    (gb, gs, gl), (wb, ws, wl) = got, want
    if len(gs) != len(ws):
        return f"{len(gs)} detections, ONNX Runtime {len(ws)}"
    used = np.zeros(len(ws), bool)
    box_tol = 2e-4 * SIZE
    for i in range(len(gs)):
        ok = (~used) & (wl == gl[i]) & (np.abs(ws - gs[i]) <= 1e-4 + 1e-4 * np.abs(ws))
        ok &= (np.abs(wb - gb[i]) <= box_tol).all(axis=1)
        match = np.flatnonzero(ok)
        if not len(match):
            return f"detection {i} (label {int(gl[i])}, score {gs[i]:.6g}) has no ONNX Runtime match"
        used[match[0]] = True
        if pairs is not None:
            pairs.append((i, match[0]))
    return f"equal ({len(gs)} detections)"


def check(nncli, name, work):
    constructor, kwargs, gain, scale = MODELS[name]
    path = os.path.join(work, name + ".onnx")
    torch.onnx.export(make(constructor, kwargs, gain, scale), ([image(0)],), path, opset_version=11,
                      input_names=["images"])
    outputs = onnx.load(path, load_external_data=False).graph.output
    labels_at = next(j for j, o in enumerate(outputs) if o.type.tensor_type.elem_type == onnx.TensorProto.INT64)
    cells = []
    for k in range(3 if "no_detections" not in name else 1):
        x = os.path.join(work, f"in{k}.npy")
        np.save(x, image(k).numpy())
        rc, out = run(["node", ORT_JS, "run", path, os.path.join(work, f"ort{k}"), x])
        if rc:
            cells.append(f"image {k}: ONNX Runtime failed: {out.splitlines()[-1]}")
            continue
        rc, out = run([nncli, "-q", "infer", "--format", "npy", "-o", os.path.join(work, f"nn{k}"), path, x])
        if rc:
            cells.append(f"image {k}: exit {rc}: {out.splitlines()[-1].replace(path, name + '.onnx')[:300]}")
            continue
        want = detections(os.path.join(work, f"ort{k}"), labels_at)
        got = detections(os.path.join(work, f"nn{k}"), labels_at)
        pairs = []
        cells.append(f"image {k}: " + agree(got, want, pairs))
        if len(outputs) > 3 and cells[-1].startswith(f"image {k}: equal"):  # Mask R-CNN's masks
            masks = [np.load(os.path.join(work, f"{who}{k}_3.npy")).astype(np.float64) for who in ("nn", "ort")]
            cells[-1] += ", " + masks_agree(masks[0], masks[1], pairs, want[0])
    return cells


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: check_detectors.py NNCLI [MODEL...]")
    ort_dir = os.environ.get("NN_ORT_DIR", os.path.expanduser("~/.cache/nncli/ort"))
    if run(["node", "--version"])[0] or not os.path.isdir(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
        print("SKIP: node or onnxruntime-node is missing (scripts/setup_ort.sh)")
        return 77
    failed = 0
    print("| detector (export, opset 11) | nncli against ONNX Runtime |\n|---|---|")
    for name in sys.argv[2:] or list(MODELS):
        with tempfile.TemporaryDirectory() as work:
            cells = check(sys.argv[1], name, work)
        failed += any(": equal" not in c for c in cells)
        print(f"| {name} | " + "; ".join(cells) + " |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
