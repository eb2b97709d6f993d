#!/usr/bin/python3
# Writes loop_unsqueeze.onnx, a PyTorch 1.13 export (opset 11, torch.jit script in a traced model, as torchvision's
# paste_masks_in_image) whose Loop runs once per row that x (n, 8) keeps (x[:, 0] > 0, a data-dependent count):
# each iteration slices its row to a data-dependent length, pads it back to 6 with ConstantOfShape zeros, Unsqueezes
# it twice and concatenates it to a carried value that starts empty (0, 1, 6). Its shapes inside the body follow
# each iteration's values, not the import-time stand-ins. Inputs loop_unsqueeze_{some,none}.npy (4 of 7 rows kept,
# none of 5). Run from this directory with python3-torch.
import numpy as np
import torch

WIDTH = 6


@torch.jit._script_if_tracing
def pad_rows(rows: torch.Tensor, lengths: torch.Tensor, width: int):
    res = torch.zeros((0, 1, width), dtype=rows.dtype)
    for i in range(rows.shape[0]):
        part = rows[i, :lengths[i]]
        padded = torch.cat([torch.zeros(lengths[i] // 2, dtype=rows.dtype), part])[:width]
        padded = torch.cat([padded, torch.zeros(width - padded.shape[0], dtype=rows.dtype)])
        res = torch.cat([res, padded.unsqueeze(0).unsqueeze(0)])
    return res


class PadKeptRows(torch.nn.Module):
    def forward(self, x):
        keep = x[x[:, 0] > 0]
        lengths = (keep[:, 1].abs() * 3).long() + 1
        return pad_rows(keep[:, 2:], lengths, WIDTH)


some = torch.randn(7, 8, generator=torch.Generator().manual_seed(3))
none = -torch.rand(5, 8, generator=torch.Generator().manual_seed(4))
torch.onnx.export(PadKeptRows(), (some,), "loop_unsqueeze.onnx", opset_version=11, input_names=["x"],
                  output_names=["y"], dynamic_axes={"x": [0]})
np.save("loop_unsqueeze_some.npy", some.numpy())
np.save("loop_unsqueeze_none.npy", none.numpy())
