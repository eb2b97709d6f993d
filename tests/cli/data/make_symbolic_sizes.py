#!/usr/bin/python3
# Makes small hand-built ONNX graphs (opset 11, the onnx package only) whose values follow the sizes of data-sized
# tensors, as torchvision's detection post-processing does, an input for each and ONNX Runtime's outputs (float32
# raw). Run from tests/cli/data with onnxruntime-node:
#   topk_of_count.onnx  sel = x[x > 0.5]; TopK(sel, min(3, len(sel))) and ConstantOfShape(Shape(values)) of 7
#                       (symsize_{many,few,none}*: 5, 2 and 0 values above 0.5)
#   if_empty.onnx       If(ReduceProd(Shape(sel)) == 0, then: an empty constant, else: sel * ReduceMax(sel))
#                       (symsize_{many,none}*)
#   if_nonempty.onnx    the same If whose then branch holds [-1]: nncli's If chooses the branch when it runs, the
#                       condition computed from the selection's run-time length (symsize_{many,none}*)
#   count_as_data.onnx  x * len(sel): refused (the count would be computed with as data, at its import-time value)
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ORT_RUN = sys.argv[1] if len(sys.argv) > 1 else "../../../scripts/ort/ort_run.js"


def const(name, values, dtype=np.int64):
    a = np.array(values, dtype=dtype)
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(a, name))


def selected():  # sel = x[x > 0.5] through NonZero and GatherND, as PyTorch exports boolean indexing
    return [
        const("half", 0.5, np.float32),
        helper.make_node("Greater", ["x", "half"], ["mask"]),
        helper.make_node("NonZero", ["mask"], ["nz"]),
        helper.make_node("Transpose", ["nz"], ["idx"], perm=[1, 0]),
        helper.make_node("GatherND", ["x", "idx"], ["sel"]),
    ]


def topk_of_count():
    nodes = selected() + [
        helper.make_node("Shape", ["sel"], ["sel_shape"]),
        const("zero", 0),
        helper.make_node("Gather", ["sel_shape", "zero"], ["count"], axis=0),
        helper.make_node("Unsqueeze", ["count"], ["count1"], axes=[0]),
        const("three", [3]),
        helper.make_node("Concat", ["three", "count1"], ["pair"], axis=0),
        helper.make_node("ReduceMin", ["pair"], ["k0"], keepdims=0),
        const("one_dim", [1]),
        helper.make_node("Reshape", ["k0", "one_dim"], ["k"]),
        helper.make_node("TopK", ["sel", "k"], ["values", "indices"], axis=-1),
        helper.make_node("Shape", ["values"], ["values_shape"]),
        helper.make_node("ConstantOfShape", ["values_shape"], ["sevens"],
                         value=numpy_helper.from_array(np.array([7], np.float32))),
    ]
    outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["k"]) for n in ["values", "sevens"]]
    return nodes, outputs


def if_graph(then_values):
    nodes = selected() + [
        helper.make_node("Shape", ["sel"], ["sel_shape"]),
        helper.make_node("ReduceProd", ["sel_shape"], ["elements"], keepdims=0),
        const("zero", 0),
        helper.make_node("Equal", ["elements", "zero"], ["empty"]),
    ]
    then_branch = helper.make_graph([const("nothing", then_values, np.float32)], "then", [],
                                   [helper.make_tensor_value_info("nothing", TensorProto.FLOAT, [None])])
    else_branch = helper.make_graph(
        [helper.make_node("ReduceMax", ["sel"], ["top"], keepdims=0),
         helper.make_node("Mul", ["sel", "top"], ["scaled"])], "else", [],
        [helper.make_tensor_value_info("scaled", TensorProto.FLOAT, [None])])
    nodes.append(helper.make_node("If", ["empty"], ["y"], then_branch=then_branch, else_branch=else_branch))
    return nodes, [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])]


def count_as_data():
    nodes = selected() + [
        helper.make_node("Shape", ["sel"], ["sel_shape"]),
        helper.make_node("Cast", ["sel_shape"], ["count"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["x", "count"], ["y"]),
    ]
    return nodes, [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8])]


def save(name, nodes, outputs):
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8])], outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 6
    onnx.checker.check_model(model)
    onnx.save(model, f"{name}.onnx")


def expect(name, tag, outputs):
    subprocess.run(["node", ORT_RUN, "run", f"{name}.onnx", "ort_out", f"symsize_{tag}.npy"], check=True)
    values = []  # infer's raw output: every output of the sample, one after another
    for j in range(outputs):
        values.append(np.load(f"ort_out_{j}.npy").astype("<f4").reshape(-1))
        os.remove(f"ort_out_{j}.npy")
    np.concatenate(values).tofile(f"{name}_{tag}_expected.bin")


inputs = {"many": [0.9, 0.1, 0.7, 0.95, 0.2, 0.6, 0.8, 0.3], "few": [0.1, 0.9, 0.2, 0.3, 0.7, 0.1, 0.0, 0.4],
          "none": [0.1, 0.2, 0.3, 0.4, 0.0, 0.1, 0.2, 0.3]}
for tag, values in inputs.items():
    np.save(f"symsize_{tag}.npy", np.array(values, np.float32))
save("topk_of_count", *topk_of_count())
save("if_empty", *if_graph(np.zeros(0)))
save("if_nonempty", *if_graph([-1.0]))
save("count_as_data", *count_as_data())
for tag in inputs:
    expect("topk_of_count", tag, 2)
for tag in ["many", "none"]:
    expect("if_empty", tag, 1)
    expect("if_nonempty", tag, 1)
