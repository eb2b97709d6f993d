#!/usr/bin/python3
# Writes the small ONNX graphs with Loop and If whose iterations and branches follow the data, for the ONNX Runtime
# cross-checks in tests/onnx_ort/CMakeLists.txt (nncli's Loop and If functions, ops/special/):
#   loop_scan.onnx   x (5, 3): M = min(count(x > 0.5), 5) iterations (no condition) of acc += x[i], scan acc * i;
#                    the body reads x from the outer graph. Inputs loop_scan_{many,none}.npy (5 and 0 iterations).
#   loop_while.onnx  x (4,): while s < 10 (M = 100): s += sum(|x|) + 0.5, hist = concat(hist, [s]) (a carried
#                    value that grows each iteration), scan s. Inputs loop_while_{small,large}.npy.
#   if_runtime.onnx  x (4, 3): if sum(x) > 6 then (2 x, max(x)) else (-x[:2], min(x)): the first output's shape
#                    follows the branch. Inputs if_runtime_{then,else}.npy.
#   slice_runtime.onnx  x (6, 5) sliced on axes (0, 1) with starts, ends and steps cast from graph input p (6,)
#                    (ONNXSlice): slice_runtime_{forward,backward}.npy (steps (2, -1), and out-of-range and negative
#                    positions with steps (1, -2)), the second input slice_runtime_x.npy.
#   shaped_runtime.onnx  s (6,), x (2, 6): ConstantOfShape, Reshape, Expand and Resize (linear, half_pixel) to
#                    shapes cast from s (ONNXConstantOfShape, ONNXReshape, ONNXExpand, ONNXResizeTo):
#                    shaped_runtime_{a,b}.npy, the second input shaped_x.npy.
# Run from this directory with python3-onnx.
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def const(name, values, dtype=np.float32):
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.array(values, dtype), name))


def save(name, nodes, inputs, outputs, opset=13):
    graph = helper.make_graph(nodes, name, inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{name}.onnx")


def loop_scan():
    body = helper.make_graph(
        [helper.make_node("Gather", ["x", "i"], ["row"], axis=0),
         helper.make_node("Add", ["acc_in", "row"], ["acc_out"]),
         helper.make_node("Cast", ["i"], ["i_f"], to=F),
         helper.make_node("Mul", ["acc_out", "i_f"], ["scan"]),
         helper.make_node("Identity", ["c_in"], ["c_out"])], "body",
        [helper.make_tensor_value_info("i", I64, []), helper.make_tensor_value_info("c_in", B, []),
         helper.make_tensor_value_info("acc_in", F, [3])],
        [helper.make_tensor_value_info("c_out", B, []), helper.make_tensor_value_info("acc_out", F, [3]),
         helper.make_tensor_value_info("scan", F, [3])])
    nodes = [const("half", 0.5), const("five", 5.0), const("zeros", np.zeros(3)),
             helper.make_node("Greater", ["x", "half"], ["mask"]),
             helper.make_node("Cast", ["mask"], ["maskf"], to=F),
             helper.make_node("ReduceSum", ["maskf"], ["count"], keepdims=0),
             helper.make_node("Min", ["count", "five"], ["n"]),
             helper.make_node("Cast", ["n"], ["m"], to=I64),
             helper.make_node("Loop", ["m", "", "zeros"], ["acc", "scans"], body=body)]
    save("loop_scan", nodes, [helper.make_tensor_value_info("x", F, [5, 3])],
         [helper.make_tensor_value_info("acc", F, [3]), helper.make_tensor_value_info("scans", F, ["n", 3])])
    rng = np.random.default_rng(1)
    np.save("loop_scan_many.npy", rng.uniform(0, 1, (5, 3)).astype(np.float32))
    np.save("loop_scan_none.npy", rng.uniform(-1, 0.4, (5, 3)).astype(np.float32))


def loop_while():
    body = helper.make_graph(
        [helper.make_node("Abs", ["x"], ["ax"]),
         helper.make_node("ReduceSum", ["ax"], ["sx"], keepdims=0),
         helper.make_node("Add", ["s_in", "sx"], ["s1"]),
         helper.make_node("Add", ["s1", "half"], ["s_out"]),
         helper.make_node("Unsqueeze", ["s_out", "axes0"], ["s_row"]),
         helper.make_node("Concat", ["hist_in", "s_row"], ["hist_out"], axis=0),
         helper.make_node("Less", ["s_out", "ten"], ["c_out"]),
         helper.make_node("Identity", ["s_out"], ["s_scan"])], "body",
        [helper.make_tensor_value_info("i", I64, []), helper.make_tensor_value_info("c_in", B, []),
         helper.make_tensor_value_info("s_in", F, []), helper.make_tensor_value_info("hist_in", F, ["h"])],
        [helper.make_tensor_value_info("c_out", B, []), helper.make_tensor_value_info("s_out", F, []),
         helper.make_tensor_value_info("hist_out", F, ["h1"]), helper.make_tensor_value_info("s_scan", F, [])])
    nodes = [const("half", 0.5), const("ten", 10.0), const("axes0", [0], np.int64), const("hundred", 100, np.int64),
             const("true", True, np.bool_), const("s0", 0.0), const("hist0", [0.0]),
             helper.make_node("Loop", ["hundred", "true", "s0", "hist0"], ["s", "hist", "steps"], body=body)]
    save("loop_while", nodes, [helper.make_tensor_value_info("x", F, [4])],
         [helper.make_tensor_value_info("s", F, []), helper.make_tensor_value_info("hist", F, ["h"]),
          helper.make_tensor_value_info("steps", F, ["n"])])
    np.save("loop_while_small.npy", np.array([0.1, -0.2, 0.3, 0.05], np.float32))
    np.save("loop_while_large.npy", np.array([2.0, -3.0, 1.5, 4.0], np.float32))


def if_runtime():
    then_branch = helper.make_graph(
        [const("two", 2.0), helper.make_node("Mul", ["x", "two"], ["t0"]),
         helper.make_node("ReduceMax", ["x"], ["t1"], keepdims=0)], "then",
        [], [helper.make_tensor_value_info("t0", F, [4, 3]), helper.make_tensor_value_info("t1", F, [])])
    else_branch = helper.make_graph(
        [const("starts", [0], np.int64), const("ends", [2], np.int64),
         helper.make_node("Slice", ["x", "starts", "ends"], ["top"]), helper.make_node("Neg", ["top"], ["e0"]),
         helper.make_node("ReduceMin", ["x"], ["e1"], keepdims=0)], "else",
        [], [helper.make_tensor_value_info("e0", F, [2, 3]), helper.make_tensor_value_info("e1", F, [])])
    nodes = [const("six", 6.0), helper.make_node("ReduceSum", ["x"], ["sum"], keepdims=0),
             helper.make_node("Greater", ["sum", "six"], ["cond"]),
             helper.make_node("If", ["cond"], ["y", "z"], then_branch=then_branch, else_branch=else_branch)]
    save("if_runtime", nodes, [helper.make_tensor_value_info("x", F, [4, 3])],
         [helper.make_tensor_value_info("y", F, ["r", 3]), helper.make_tensor_value_info("z", F, [])])
    rng = np.random.default_rng(2)
    np.save("if_runtime_then.npy", rng.uniform(0.5, 1, (4, 3)).astype(np.float32))
    np.save("if_runtime_else.npy", rng.uniform(-1, 0.5, (4, 3)).astype(np.float32))


def slice_runtime():
    nodes = [const("z", [0], np.int64), const("two", [2], np.int64), const("four", [4], np.int64),
             const("six", [6], np.int64), const("axes", [0, 1], np.int64)]
    for name, lo, hi in [("starts", "z", "two"), ("ends", "two", "four"), ("steps", "four", "six")]:
        nodes += [helper.make_node("Slice", ["p", lo, hi], [name + "_f"]),
                  helper.make_node("Cast", [name + "_f"], [name], to=I64)]
    nodes.append(helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"]))
    save("slice_runtime", nodes, [helper.make_tensor_value_info("p", F, [6]), helper.make_tensor_value_info("x", F, [6, 5])],
         [helper.make_tensor_value_info("y", F, ["a", "b"])])
    np.save("slice_runtime_forward.npy", np.array([1, 4, 5, 0, 2, -1], np.float32))
    np.save("slice_runtime_backward.npy", np.array([-5, -1, 100, -100, 1, -2], np.float32))
    np.save("slice_runtime_x.npy", np.arange(30, dtype=np.float32).reshape(6, 5))


def shaped_runtime():
    nodes = [const("z", [0], np.int64), const("two", [2], np.int64), const("four", [4], np.int64),
             const("six", [6], np.int64), const("ones", [1, 1], np.int64), const("one", [1], np.int64),
             const("flat4", [1, 1, 2, 6], np.int64)]
    for name, lo, hi in [("a", "z", "two"), ("b", "two", "four"), ("c", "four", "six")]:
        nodes += [helper.make_node("Slice", ["s", lo, hi], [name + "_f"]),
                  helper.make_node("Cast", [name + "_f"], [name], to=I64)]
    nodes += [helper.make_node("ConstantOfShape", ["a"], ["y0"], value=numpy_helper.from_array(np.array([1.5], np.float32))),
              helper.make_node("Reshape", ["x", "b"], ["y1"]),
              helper.make_node("Slice", ["x", "z", "one"], ["row"]),
              helper.make_node("Expand", ["row", "c"], ["y2"]),
              helper.make_node("Reshape", ["x", "flat4"], ["x4"]),
              helper.make_node("Concat", ["ones", "a"], ["sizes"], axis=0),
              helper.make_node("Resize", ["x4", "", "", "sizes"], ["y3"], mode="linear")]
    save("shaped_runtime", nodes, [helper.make_tensor_value_info("s", F, [6]), helper.make_tensor_value_info("x", F, [2, 6])],
         [helper.make_tensor_value_info(n, F, [n + "_" + str(k) for k in range(r)])
          for n, r in [("y0", 2), ("y1", 2), ("y2", 2), ("y3", 4)]])
    np.save("shaped_runtime_a.npy", np.array([3, 4, 3, 4, 3, 1], np.float32))
    np.save("shaped_runtime_b.npy", np.array([5, 2, -1, 2, 2, 6], np.float32))
    np.save("shaped_x.npy", np.arange(12, dtype=np.float32).reshape(2, 6) * 0.5)


loop_scan()
loop_while()
shaped_runtime()
slice_runtime()
if_runtime()
