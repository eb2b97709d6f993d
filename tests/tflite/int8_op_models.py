#!/usr/bin/env python3
"""One-operator int8 TFLite models (as flatc JSON) for tests/tflite/int8_op_check.sh: each case is a single
operator on int8 tensors whose scales and zero points differ, the places where TFLite's integer kernels and a
float computation rounded to the output grid could part.

    int8_op_models.py --list           the case names
    int8_op_models.py NAME OUT.json    write case NAME (flatc -b SCHEMA OUT.json makes OUT.tflite)

Standard library only; weights come from a fixed LCG, so every run writes the same file.
"""
import json
import struct
import sys

OPS = {"ADD": 0, "CONCATENATION": 2, "CONV_2D": 3, "DEPTHWISE_CONV_2D": 4, "DEQUANTIZE": 6, "RELU": 19,
       "RESHAPE": 22, "SOFTMAX": 25, "PAD": 34, "TRANSPOSE": 39, "RESIZE_NEAREST_NEIGHBOR": 97,
       "LEAKY_RELU": 98, "QUANTIZE": 114}


def lcg(count, seed, lo, hi):
    state, out = seed, []
    for _ in range(count):
        state = (state * 1103515245 + 12345) % (1 << 31)
        out.append(lo + (state >> 8) % (hi - lo + 1))
    return out


class Model:
    def __init__(self):
        self.tensors, self.buffers, self.ops, self.codes = [], [{}], [], []
        self.inputs, self.outputs = [], []

    def tensor(self, name, shape, kind="INT8", q=None, data=None):
        t = {"name": name, "shape": shape, "type": kind, "buffer": 0}
        if q is not None:
            scales, zps = (q[0], q[1]) if isinstance(q[0], list) else ([q[0]], [q[1]])
            t["quantization"] = {"scale": scales, "zero_point": zps}
            if len(q) > 2:
                t["quantization"]["quantized_dimension"] = q[2]
        if data is not None:
            t["buffer"] = len(self.buffers)
            self.buffers.append({"data": list(data)})
        self.tensors.append(t)
        return len(self.tensors) - 1

    def input(self, *args, **kw):
        t = self.tensor(*args, **kw)
        self.inputs.append(t)
        return t

    def const(self, name, shape, kind, values, q=None):
        fmt = {"INT8": "b", "INT32": "i", "FLOAT32": "f"}[kind]
        return self.tensor(name, shape, kind, q, struct.pack("<%d%s" % (len(values), fmt), *values))

    def op(self, name, inputs, outputs, options=None):
        if name not in self.codes:
            self.codes.append(name)
        o = {"opcode_index": self.codes.index(name), "inputs": inputs, "outputs": outputs}
        if options:
            o["builtin_options_type"], o["builtin_options"] = options
        self.ops.append(o)

    def json(self, outputs):
        codes = [{"deprecated_builtin_code": min(OPS[c], 127), "builtin_code": OPS[c]}
                 for c in self.codes]
        graph = {"tensors": self.tensors, "inputs": self.inputs, "outputs": outputs, "operators": self.ops}
        return {"version": 3, "operator_codes": codes, "subgraphs": [graph], "buffers": self.buffers}


def unary(op, in_shape, out_shape, qin, qout, options=None, extra=()):
    """One operator on one int8 input; `extra` builds constant inputs after it."""
    m = Model()
    x = m.input("x", in_shape, q=qin)
    ins = [x] + [f(m) for f in extra]
    y = m.tensor("y", out_shape, q=qout)
    m.op(op, ins, [y], options)
    return m.json([y])


def ints(name, values):
    return lambda m: m.const(name, [len(values)], "INT32", values)


def leaky(alpha, qin, qout):
    return unary("LEAKY_RELU", [1, 4, 5, 6], [1, 4, 5, 6], qin, qout, ("LeakyReluOptions", {"alpha": alpha}))


def pad(qin, qout):
    paddings = lambda m: m.const("paddings", [4, 2], "INT32", [0, 0, 1, 2, 2, 1, 0, 0])
    return unary("PAD", [1, 3, 4, 2], [1, 6, 7, 2], qin, qout, ("PadOptions", {}), [paddings])


def resize(in_hw, out_hw, align, half):
    size = ints("size", out_hw)
    return unary("RESIZE_NEAREST_NEIGHBOR", [1] + in_hw + [3], [1] + out_hw + [3], (0.05, 3), (0.05, 3),
                 ("ResizeNearestNeighborOptions", {"align_corners": align, "half_pixel_centers": half}), [size])


def concat(axis, shapes, qins, qout):
    m = Model()
    xs = [m.input("x%d" % k, s, q=q) for k, (s, q) in enumerate(zip(shapes, qins))]
    out = list(shapes[0])
    out[axis] = sum(s[axis] for s in shapes)
    y = m.tensor("y", out, q=qout)
    m.op("CONCATENATION", xs, [y], ("ConcatenationOptions", {"axis": axis}))
    return m.json([y])


def add(qa, qb, qout, shape_b=(1, 3, 4, 5)):
    m = Model()
    a = m.input("a", [1, 3, 4, 5], q=qa)
    b = m.input("b", list(shape_b), q=qb)
    y = m.tensor("y", [1, 3, 4, 5], q=qout)
    m.op("ADD", [a, b], [y], ("AddOptions", {}))
    return m.json([y])


def conv(depthwise, qin, qout):
    m = Model()
    x = m.input("x", [1, 6, 5, 4], q=qin)
    cout = 8
    wshape = [1, 3, 3, cout] if depthwise else [cout, 3, 3, 4]
    wscales = [0.004 + 0.001 * c for c in range(cout)]
    w = m.const("w", wshape, "INT8", lcg(9 * cout * (1 if depthwise else 4), 7, -127, 127),
                q=(wscales, [0] * cout, 3 if depthwise else 0))
    b = m.const("b", [cout], "INT32", lcg(cout, 11, -3000, 3000),
                q=([qin[0] * s for s in wscales], [0] * cout))
    y = m.tensor("y", [1, 6, 5, cout], q=qout)
    if depthwise:
        opts = ("DepthwiseConv2DOptions", {"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 2})
    else:
        opts = ("Conv2DOptions", {"padding": "SAME", "stride_w": 1, "stride_h": 1})
    m.op("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", [x, w, b], [y], opts)
    return m.json([y])


def quantize(kind_in, qin, qout):
    return unary("QUANTIZE", [2, 3, 7], [2, 3, 7], qin, qout) if kind_in == "INT8" else float_quantize(qout)


def float_quantize(qout):
    m = Model()
    x = m.input("x", [2, 3, 7], "FLOAT32")
    y = m.tensor("y", [2, 3, 7], q=qout)
    m.op("QUANTIZE", [x], [y])
    return m.json([y])


def dequantize(qin):
    m = Model()
    x = m.input("x", [2, 3, 7], q=qin)
    y = m.tensor("y", [2, 3, 7], "FLOAT32")
    m.op("DEQUANTIZE", [x], [y])
    return m.json([y])


NHWC_TO_NCHW = ints("perm", [0, 3, 1, 2])
CASES = {
    # LEAKY_RELU: the identity and alpha branches are requantized with their own multipliers.
    "leaky_relu": lambda: leaky(0.1, (0.05, 10), (0.03, -20)),
    "leaky_relu_alpha_0_2": lambda: leaky(0.2, (0.02, -5), (0.04, 30)),
    "leaky_relu_same_grid": lambda: leaky(0.01, (0.05, 0), (0.05, 0)),
    "leaky_relu_ratio_0_7": lambda: leaky(0.1, (0.0213, -3), (0.0304, -40)),
    # |ratio x alpha| under 1/256: XNNPACK refuses it, TFLite's own kernel (exact multipliers) runs.
    "leaky_relu_tiny_alpha": lambda: leaky(0.001, (0.05, 0), (0.04, 0)),
    # PAD fills with the output's zero point.
    "pad_zero_point": lambda: pad((0.1, 7), (0.1, 7)),
    # RESIZE_NEAREST_NEIGHBOR: the source index rule of each flag pair, at ratios that are not whole numbers.
    "resize_nearest_up": lambda: resize([3, 5], [7, 8], False, False),
    "resize_nearest_down": lambda: resize([7, 8], [3, 5], False, False),
    "resize_nearest_half_pixel_up": lambda: resize([3, 5], [7, 8], False, True),
    "resize_nearest_half_pixel_down": lambda: resize([7, 8], [3, 5], False, True),
    "resize_nearest_align_corners_up": lambda: resize([3, 5], [7, 8], True, False),
    "resize_nearest_align_corners_down": lambda: resize([7, 8], [3, 5], True, False),
    "resize_nearest_x2": lambda: resize([3, 4], [6, 8], False, False),
    "resize_nearest_x2_half_pixel": lambda: resize([3, 4], [6, 8], False, True),
    # CONCATENATION of inputs on other grids than the output's, on a non-last axis and on the last.
    "concat_axis1_rescaled": lambda: concat(1, [[1, 2, 3, 4], [1, 3, 3, 4]], [(0.1, 0), (0.05, -10)], (0.12, 5)),
    "concat_axis3_rescaled": lambda: concat(3, [[1, 2, 3, 4], [1, 2, 3, 2]], [(0.02, 20), (0.07, -3)], (0.05, -1)),
    "concat_same_grid": lambda: concat(1, [[1, 2, 3, 4], [1, 3, 3, 4]], [(0.1, 4), (0.1, 4)], (0.1, 4)),
    # TRANSPOSE moves quantized values.
    "transpose": lambda: unary("TRANSPOSE", [1, 3, 4, 5], [1, 5, 3, 4], (0.04, -7), (0.04, -7), None, [NHWC_TO_NCHW]),
    "reshape": lambda: unary("RESHAPE", [1, 3, 4, 5], [1, 12, 5], (0.04, -7), (0.04, -7), None,
                             [ints("shape", [1, 12, 5])]),
    # ADD of two grids into a third (broadcast along the first axes too).
    "add_rescaled": lambda: add((0.03, 5), (0.08, -12), (0.09, 2)),
    "add_broadcast": lambda: add((0.03, 5), (0.05, -2), (0.06, -9), (1, 1, 1, 5)),
    "relu_rescaled": lambda: unary("RELU", [1, 3, 4, 5], [1, 3, 4, 5], (0.05, -10), (0.03, -128)),
    # QUANTIZE float -> int8, QUANTIZE int8 -> int8 (requantize), DEQUANTIZE.
    "quantize_float": lambda: float_quantize((0.0078125, 3)),
    "quantize_float_saturating": lambda: float_quantize((0.004, -100)),
    "requantize": lambda: quantize("INT8", (0.05, 10), (0.03, -4)),
    "dequantize": lambda: dequantize((0.05, 10)),
    # SOFTMAX to TFLite's fixed int8 output grid.
    "softmax": lambda: unary("SOFTMAX", [2, 10], [2, 10], (0.1, 3), (1.0 / 256, -128), ("SoftmaxOptions", {"beta": 1.0})),
    "softmax_fine": lambda: unary("SOFTMAX", [2, 10], [2, 10], (0.02, -9), (1.0 / 256, -128),
                                  ("SoftmaxOptions", {"beta": 1.0})),
    # Convolutions with per-channel weights.
    "conv_2d": lambda: conv(False, (0.05, 3), (0.08, -6)),
    "depthwise_conv_2d": lambda: conv(True, (0.05, 3), (0.03, -6)),
}


def main(argv):
    if argv == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(argv) != 2 or argv[0] not in CASES:
        print("usage: int8_op_models.py --list | NAME OUT.json", file=sys.stderr)
        return 2
    with open(argv[1], "w") as f:
        json.dump(CASES[argv[0]](), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
