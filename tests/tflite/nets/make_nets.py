#!/usr/bin/env python3
"""Writes the small .nntxt networks (with their parameters) that tests/tflite exports to TFLite.

Provenance script: run once by hand (python3 make_nets.py); the build never runs it. Values are multiples
of 1/64 from a fixed LCG, so they are exact in float32 and in the text files.
"""

NETS = {}


def values(count, seed, scale=1.0):
    state = seed
    out = []
    for _ in range(count):
        state = (state * 1103515245 + 12345) % (1 << 31)
        out.append(scale * ((state >> 8) % 129 - 64) / 64.0)
    return out


def dims(shape):
    return " ".join("dim: %d" % d for d in shape)


class Net:
    def __init__(self, name, batch=1):
        self.name, self.batch = name, batch
        self.vars, self.funcs, self.params, self.inputs, self.outputs = [], [], [], [], []
        self.seed = 1

    def var(self, name, shape, kind="Buffer"):
        self.vars.append('  variable { name: "%s" type: "%s" shape { %s } }' % (name, kind, dims(shape)))
        return name

    def input(self, name, shape):
        self.inputs.append(name)
        return self.var(name, shape)

    def param(self, name, shape, scale=1.0, positive=False):
        self.var(name, shape, "Parameter")
        count = 1
        for d in shape:
            count *= d
        self.seed += 1
        data = values(count, self.seed, scale)
        if positive:
            data = [abs(v) + 0.25 for v in data]
        body = "".join("  data: %r\n" % float(v) for v in data)
        self.params.append('parameter {\n  variable_name: "%s"\n  shape { %s }\n%s  need_grad: true\n}\n'
                           % (name, dims(shape), body))
        return name

    def fn(self, name, type_, inputs, output, shape, param=""):
        self.var(output, shape)
        ins = " ".join('input: "%s"' % i for i in inputs)
        self.funcs.append('  function { name: "%s" type: "%s" %s output: "%s"%s }'
                          % (name, type_, ins, output, (" " + param) if param else ""))
        return output

    def text(self):
        out = 'network {\n  name: "%s"\n  batch_size: %d\n' % (self.name, self.batch)
        out += "\n".join(self.vars + self.funcs) + "\n}\n"
        out += "".join(self.params)
        out += 'executor {\n  name: "runtime"\n  network_name: "%s"\n' % self.name
        for i in self.inputs:
            out += '  data_variable { variable_name: "%s" data_name: "%s" }\n' % (i, i)
        for o in self.outputs:
            out += '  output_variable { variable_name: "%s" data_name: "%s" }\n' % (o, o)
        return out + "}\n"


def conv_param(pad, stride, group=1, dilation=(1, 1), channel_last=False):
    return ("convolution_param { base_axis: 1 pad { %s } stride { %s } dilation { %s } group: %d channel_last: %s }"
            % (dims(pad), dims(stride), dims(dilation), group, "true" if channel_last else "false"))


def pool_param(kind, kernel, stride, pad, channel_last=False, extra=""):
    return ("%s_param { kernel { %s } stride { %s } ignore_border: true pad { %s } channel_last: %s%s }"
            % (kind, dims(kernel), dims(stride), dims(pad), "true" if channel_last else "false", extra))


def channel_last_net():
    """NHWC data throughout: channel_last convolutions and poolings, BatchNormalization on axis 3."""
    n = Net("channel_last")
    x = n.input("x", [-1, 8, 8, 3])
    h = n.fn("conv1", "Convolution", [x, n.param("conv1/W", [4, 3, 3, 3], 0.5), n.param("conv1/b", [4], 0.25)],
             "conv1", [-1, 8, 8, 4], conv_param([1, 1], [1, 1], channel_last=True))
    bn = [n.param("bn/beta", [1, 1, 1, 4], 0.25), n.param("bn/gamma", [1, 1, 1, 4], 0.5, positive=True),
          n.param("bn/mean", [1, 1, 1, 4], 0.25), n.param("bn/var", [1, 1, 1, 4], 0.5, positive=True)]
    h = n.fn("bn", "BatchNormalization", [h] + bn, "bn", [-1, 8, 8, 4],
             "batch_normalization_param { axes: 3 decay_rate: 0.9 eps: 1e-05 batch_stat: false }")
    h = n.fn("relu1", "ReLU", [h], "relu1", [-1, 8, 8, 4])
    h = n.fn("pool1", "MaxPooling", [h], "pool1", [-1, 4, 4, 4], pool_param("max_pooling", [2, 2], [2, 2], [0, 0], True))
    h = n.fn("conv2", "Convolution", [h, n.param("conv2/W", [6, 3, 3, 4], 0.5), n.param("conv2/b", [6], 0.25)],
             "conv2", [-1, 2, 2, 6], conv_param([1, 1], [2, 2], channel_last=True))
    h = n.fn("pool2", "AveragePooling", [h], "pool2", [-1, 2, 2, 6],
             pool_param("average_pooling", [3, 3], [1, 1], [1, 1], True, " including_pad: true"))
    y = n.fn("fc", "Affine", [h, n.param("fc/W", [24, 5], 0.25), n.param("fc/b", [5], 0.25)], "y", [-1, 5],
             "affine_param { base_axis: 1 }")
    n.outputs = [y, "pool1"]
    return n


def shapes_net():
    """-1 batch through Slice, Reshape, Transpose and Concatenate (for --dynamic-batch)."""
    n = Net("shapes")
    x = n.input("x", [-1, 3, 4, 4])
    h = n.fn("conv", "Convolution", [x, n.param("conv/W", [4, 3, 3, 3], 0.5)], "conv", [-1, 4, 4, 4],
             conv_param([1, 1], [1, 1]))
    s = n.fn("slice", "Slice", [h], "slice", [-1, 3, 4, 4], "slice_param { start: 1 start: 0 start: 0 stop: 4 stop: 4 stop: 4 step: 1 step: 1 step: 1 }")
    t = n.fn("transpose", "Transpose", [s], "transpose", [-1, 4, 3, 4], "transpose_param { axes: 0 axes: 3 axes: 1 axes: 2 }")
    r = n.fn("reshape", "Reshape", [t], "reshape", [-1, 48], "reshape_param { shape { dim: -1 dim: 48 } }")
    a = n.fn("fc", "Affine", [r, n.param("fc/W", [48, 6], 0.25)], "fc", [-1, 6], "affine_param { base_axis: 1 }")
    c = n.fn("concat", "Concatenate", [a, r], "concat", [-1, 54], "concatenate_param { axis: 1 }")
    n.outputs = [c]
    return n


def deconv_param(pad, stride, output_padding=(0, 0), group=1, dilation=(1, 1)):
    return ("deconvolution_param { base_axis: 1 pad { %s } stride { %s } dilation { %s } group: %d "
            "channel_last: false output_padding { %s } }"
            % (dims(pad), dims(stride), dims(dilation), group, dims(output_padding)))


def deconv_out(size, k, s, p, op, d=1):
    return s * (size - 1) + d * (k - 1) + 1 - 2 * p + op


def deconv_net(zero_tail):
    """Deconvolutions that TRANSPOSE_CONV takes as SAME, as VALID, through a crop, or (zero_tail: output_padding
    past the transposed output) through a PAD of zeros."""
    n = Net("deconv_zero_tail" if zero_tail else "deconv")
    h, w = 3, 4
    x = n.input("x", [-1, 3, h, w])
    cases = [  # name, kernel, stride, pad, output_padding, bias
        ("crop_op1", 3, 2, 1, 1, True), ("same", 4, 2, 1, 0, True), ("valid", 3, 1, 0, 0, False),
        ("crop_k5", 5, 1, 1, 0, False)]
    if zero_tail:
        cases = [("zero_tail", 2, 2, 0, 1, True)]
    for name, k, s, p, op, bias in cases:
        ins = [x, n.param(name + "/W", [3, 2, k, k], 0.5)] + ([n.param(name + "/b", [2], 0.5)] if bias else [])
        n.outputs.append(n.fn(name, "Deconvolution", ins, name,
                              [-1, 2, deconv_out(h, k, s, p, op), deconv_out(w, k, s, p, op)],
                              deconv_param([p, p], [s, s], [op, op])))
    return n


def deconv_unsupported_net():
    """Deconvolutions TRANSPOSE_CONV cannot express: groups and dilation."""
    n = Net("deconv_unsupported")
    x = n.input("x", [-1, 4, 3, 3])
    g = n.fn("grouped", "Deconvolution", [x, n.param("grouped/W", [4, 1, 3, 3], 0.5)], "grouped",
             [-1, 2, 5, 5], deconv_param([0, 0], [1, 1], group=2))
    d = n.fn("dilated", "Deconvolution", [x, n.param("dilated/W", [4, 2, 3, 3], 0.5)], "dilated",
             [-1, 2, 7, 7], deconv_param([0, 0], [1, 1], dilation=(2, 2)))
    n.outputs = [g, d]
    return n


def int8_ops_net(with_pad):
    """int8: CONCATENATION of differently scaled branches (one a LOGISTIC on its fixed 1/256 grid), then the
    operators that keep their input's grid: (PAD,) MAX_POOL_2D, STRIDED_SLICE, TRANSPOSE, RESHAPE."""
    n = Net("int8_ops_pad" if with_pad else "int8_ops")
    x = n.input("x", [-1, 3, 6, 6])
    a = n.fn("conv_a", "Convolution", [x, n.param("conv_a/W", [4, 3, 3, 3], 1.0), n.param("conv_a/b", [4], 0.5)],
             "conv_a", [-1, 4, 6, 6], conv_param([1, 1], [1, 1]))
    a = n.fn("relu_a", "ReLU", [a], "relu_a", [-1, 4, 6, 6])
    b = n.fn("conv_b", "Convolution", [x, n.param("conv_b/W", [2, 3, 1, 1], 0.125)], "conv_b", [-1, 2, 6, 6],
             conv_param([0, 0], [1, 1]))
    c = n.fn("sigmoid_c", "Sigmoid", [b], "sigmoid_c", [-1, 2, 6, 6])
    h = n.fn("concat", "Concatenate", [a, b, c], "concat", [-1, 8, 6, 6], "concatenate_param { axis: 1 }")
    size = 6
    if with_pad:
        h = n.fn("pad", "Pad", [h], "pad", [-1, 8, 8, 8],
                 'pad_param { pad_width: 1 pad_width: 1 pad_width: 1 pad_width: 1 mode: "constant" constant_value: 0 }')
        size = 8
    h = n.fn("pool", "MaxPooling", [h], "pool", [-1, 8, size // 2, size // 2],
             pool_param("max_pooling", [2, 2], [2, 2], [0, 0]))
    h = n.fn("slice", "Slice", [h], "slice", [-1, 6, size // 2, size // 2],
             "slice_param { start: 1 start: 0 start: 0 stop: 7 stop: %d stop: %d step: 1 step: 1 step: 1 }"
             % (size // 2, size // 2))
    h = n.fn("transpose", "Transpose", [h], "transpose", [-1, size // 2, 6, size // 2],
             "transpose_param { axes: 0 axes: 2 axes: 1 axes: 3 }")
    inner = 6 * (size // 2) ** 2
    h = n.fn("reshape", "Reshape", [h], "reshape", [-1, inner], "reshape_param { shape { dim: -1 dim: %d } }" % inner)
    y = n.fn("fc", "Affine", [h, n.param("fc/W", [inner, 5], 0.25), n.param("fc/b", [5], 0.5)], "y", [-1, 5],
             "affine_param { base_axis: 1 }")
    n.outputs = [y, "concat"]
    return n


for net in (channel_last_net(), shapes_net(), deconv_net(False), deconv_net(True), deconv_unsupported_net(),
            int8_ops_net(False), int8_ops_net(True)):
    with open(net.name + ".nntxt", "w") as f:
        f.write("# Written by make_nets.py (tests/tflite/nets).\n" + net.text())
