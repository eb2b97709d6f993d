#!/usr/bin/python3
# Writes ceil_pooling.onnx, MaxPool with ceil_mode=1 as torchvision's GoogLeNet exports it, for the ONNX Runtime
# cross-check in tests/onnx_ort/CMakeLists.txt and the structural check in tests/cli/dump: inputs a (1, 2, 10, 10)
# and b (1, 2, 7, 7); outputs k3s2 (a, kernel 3, stride 2: a partial window at the end), k3s2p1 (a, pads 1),
# k2s2 (b, kernel 2, stride 2) — all three are nnabla's MaxPooling with ignore_border=false — and k3s1 (b, kernel
# 3, stride 1: ceil adds nothing, ignore_border=true) and k5s2 (a, kernel 5, stride 2: nnabla's partial windows would give
# one more output, so it stays a -inf Pad then MaxPooling); avg (a Pad of zeros, as PyTorch writes before
# avg_pool2d, then AveragePool 2x2: the Pad imports as Identity). Inputs ceil_pooling_{a,b}.npy.
# Run from this directory with python3-onnx.
import numpy as np
import onnx
from onnx import TensorProto, helper

F = TensorProto.FLOAT


def pool(x, y, kernel, stride, pads):
    return helper.make_node("MaxPool", [x], [y], kernel_shape=[kernel] * 2, strides=[stride] * 2,
                            pads=[pads] * 4, ceil_mode=1)


nodes = [pool("a", "k3s2", 3, 2, 0), pool("a", "k3s2p1", 3, 2, 1), pool("b", "k2s2", 2, 2, 0),
         pool("b", "k3s1", 3, 1, 0), pool("a", "k5s2", 5, 2, 0),
         helper.make_node("Constant", [], ["zeros"], value=helper.make_tensor("zeros", TensorProto.INT64, [8], [0] * 8)),
         helper.make_node("Pad", ["a", "zeros"], ["a_padded"], mode="constant"),
         helper.make_node("AveragePool", ["a_padded"], ["avg"], kernel_shape=[2, 2], strides=[2, 2])]
shapes = {"k3s2": 5, "k3s2p1": 6, "k2s2": 4, "k3s1": 5, "k5s2": 4, "avg": 5}
outputs = [helper.make_tensor_value_info(name, F, [1, 2, size, size]) for name, size in shapes.items()]
graph = helper.make_graph(nodes, "ceil_pooling", [helper.make_tensor_value_info("a", F, [1, 2, 10, 10]),
                                                  helper.make_tensor_value_info("b", F, [1, 2, 7, 7])], outputs)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, "ceil_pooling.onnx")
rng = np.random.default_rng(7)
np.save("ceil_pooling_a.npy", rng.standard_normal((1, 2, 10, 10)).astype(np.float32))
np.save("ceil_pooling_b.npy", rng.standard_normal((1, 2, 7, 7)).astype(np.float32))
