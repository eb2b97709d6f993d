#!/usr/bin/env python3
"""Writes the sample MLP (mlp.nntxt, mlp.nnp), its inputs and its expected outputs (plain Python, float64).

Provenance script: run once by hand (python3 make_mlp.py); the build never runs it. Weights and inputs are
multiples of 1/64, so they are exact in float32 and in the text file.
"""
import math
import struct
import zipfile

IN, HIDDEN, OUT, BATCH = 4, 8, 3, 2


def values(count, seed):
    state = seed
    out = []
    for _ in range(count):
        state = (state * 1103515245 + 12345) % (1 << 31)
        out.append(((state >> 8) % 129 - 64) / 64.0)
    return out


W1, B1 = values(IN * HIDDEN, 1), values(HIDDEN, 2)
W2, B2 = values(HIDDEN * OUT, 3), values(OUT, 4)
X = values(BATCH * IN, 5)


def fmt(v):
    return repr(float(v))


def param(name, shape, data):
    dims = "".join("      dim: %d\n" % d for d in shape)
    body = "".join("  data: %s\n" % fmt(v) for v in data)
    return "parameter {\n  variable_name: \"%s\"\n  shape {\n%s  }\n%s  need_grad: true\n}\n" % (name, dims.replace("      ", "    "), body)


def variable(name, shape, kind="Buffer"):
    dims = "".join("      dim: %d\n" % d for d in shape)
    return "  variable {\n    name: \"%s\"\n    type: \"%s\"\n    shape {\n%s    }\n  }\n" % (name, kind, dims)


def function(name, kind, inputs, outputs, extra=""):
    ins = "".join("    input: \"%s\"\n" % i for i in inputs)
    outs = "".join("    output: \"%s\"\n" % o for o in outputs)
    return "  function {\n    name: \"%s\"\n    type: \"%s\"\n%s%s%s  }\n" % (name, kind, ins, outs, extra)


network = ("network {\n  name: \"mlp\"\n  batch_size: %d\n" % BATCH
           + variable("x", [-1, IN])
           + variable("fc1/affine/W", [IN, HIDDEN], "Parameter") + variable("fc1/affine/b", [HIDDEN], "Parameter")
           + variable("fc1", [-1, HIDDEN]) + variable("relu1", [-1, HIDDEN])
           + variable("fc2/affine/W", [HIDDEN, OUT], "Parameter") + variable("fc2/affine/b", [OUT], "Parameter")
           + variable("fc2", [-1, OUT]) + variable("y", [-1, OUT])
           + function("fc1", "Affine", ["x", "fc1/affine/W", "fc1/affine/b"], ["fc1"],
                      "    affine_param {\n      base_axis: 1\n    }\n")
           + function("relu1", "ReLU", ["fc1"], ["relu1"])
           + function("fc2", "Affine", ["relu1", "fc2/affine/W", "fc2/affine/b"], ["fc2"],
                      "    affine_param {\n      base_axis: 1\n    }\n")
           + function("softmax", "Softmax", ["fc2"], ["y"], "    softmax_param {\n      axis: 1\n    }\n")
           + "}\n")
executor = ("executor {\n  name: \"runtime\"\n  network_name: \"mlp\"\n"
            "  data_variable {\n    variable_name: \"x\"\n    data_name: \"x\"\n  }\n"
            "  output_variable {\n    variable_name: \"y\"\n    data_name: \"y\"\n  }\n}\n")
params = (param("fc1/affine/W", [IN, HIDDEN], W1) + param("fc1/affine/b", [HIDDEN], B1)
          + param("fc2/affine/W", [HIDDEN, OUT], W2) + param("fc2/affine/b", [OUT], B2))

with open("mlp.nntxt", "w") as f:
    f.write(network + executor)
with zipfile.ZipFile("mlp.nnp", "w", zipfile.ZIP_STORED) as z:
    z.writestr("nnp_version.txt", "0.1\n")
    z.writestr("network.nntxt", network + executor + params)


def forward(x):
    h = [max(0.0, B1[j] + sum(x[i] * W1[i * HIDDEN + j] for i in range(IN))) for j in range(HIDDEN)]
    z = [B2[k] + sum(h[j] * W2[j * OUT + k] for j in range(HIDDEN)) for k in range(OUT)]
    m = max(z)
    e = [math.exp(v - m) for v in z]
    return [v / sum(e) for v in e]


with open("input_b2.bin", "wb") as f:
    f.write(struct.pack("<%df" % len(X), *X))
for b in range(BATCH):
    with open("expected_output_b2_%d.bin" % b, "wb") as f:
        y = forward(X[b * IN:(b + 1) * IN])
        f.write(struct.pack("<%df" % OUT, *y))
with open("data.csv", "w") as f:
    f.write(",".join("x__%d" % i for i in range(IN)) + "\n")
    for b in range(BATCH):
        f.write(",".join(fmt(v) for v in X[b * IN:(b + 1) * IN]) + "\n")
