#!/usr/bin/python3
# Writes cast_truncates.onnx: y = Cast(Cast(x, INT64), FLOAT) for x (2, 4) a graph input, so that the float-to-integer
# Cast must drop each value's fraction (toward zero, as ONNX Runtime does), and cast_truncates_x.npy (positive and
# negative values with fractions). Run from this directory with python3-onnx.
import numpy as np
import onnx
from onnx import TensorProto, helper

nodes = [helper.make_node("Cast", ["x"], ["i"], to=TensorProto.INT64),
         helper.make_node("Cast", ["i"], ["y"], to=TensorProto.FLOAT)]
graph = helper.make_graph(nodes, "cast_truncates", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model)
onnx.save(model, "cast_truncates.onnx")
np.save("cast_truncates_x.npy", np.array([[0.25, 1.5, 2.75, -0.5], [-1.25, -2.99, 3.0, 7.9]], np.float32))
