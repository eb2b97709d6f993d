#!/usr/bin/python3
# Writes the small ONNX graphs whose NonZero output size follows the data (the input is a graph input, so the
# size is known only at run time), for the ONNX Runtime cross-checks in tests/onnx_ort/CMakeLists.txt:
#   nonzero.onnx                  x -> Greater(0.5) -> NonZero                   (the single data-sized op)
#   nonzero_transpose.onnx        x -> Greater(0.5) -> NonZero -> Transpose     (torch.nonzero's export)
#   masked_select.onnx            x -> Greater(0.5) -> NonZero -> Transpose -> GatherND(x, .)
#                                                                               (torch.masked_select's export)
#   topk_shape_k.onnx             TopK(x, K) along axis 1, K = Reshape(Gather(Shape(x), 0), [1]) (K computed from
#                                 the input's shape, as exporters write x.topk(x.shape[0]))
#   topk_input_k.onnx             TopK(x, k) with k a graph input (known only at run time: refused)
#   compress.onnx                 Compress(x, ReduceSum(x, axis 0) > 0, axis=1)  (columns picked at run time)
#   unique.onnx                   Unique(Round(2 x)): values, first indices, inverse indices, counts
#   nms.onnx                      NonMaxSuppression(boxes (1, 8, 4), scores (1, 2, 8), 3, 0.3, 0.0)
# The protobuf wire format is written by hand (python3-onnx is not a test dependency). Run from this directory.
import struct

FLOAT, BOOL, INT64 = 1, 9, 7


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field_int(number, value):
    return varint(number << 3) + varint(value)


def field_bytes(number, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def value_info(name, elem_type, dims=None):
    shape = b""
    if dims is not None:
        shape = field_bytes(2, b"".join(field_bytes(1, field_int(1, d)) for d in dims))
    tensor_type = field_int(1, elem_type) + shape
    return field_bytes(1, name) + field_bytes(2, field_bytes(1, tensor_type))


def float_scalar(name, value, dims=()):
    data = b"".join(field_int(1, d) for d in dims) + field_int(2, FLOAT) + field_bytes(8, name)
    return data + field_bytes(9, struct.pack("<f", value))


def int64_tensor(name, values, dims):
    data = b"".join(field_int(1, d) for d in dims) + field_int(2, INT64) + field_bytes(8, name)
    return data + field_bytes(9, struct.pack("<%dq" % len(values), *values))


def node(op, inputs, outputs, ints_attrs=None, int_attrs=None):
    body = b"".join(field_bytes(1, i) for i in inputs) + b"".join(field_bytes(2, o) for o in outputs)
    body += field_bytes(3, outputs[0] + "_node") + field_bytes(4, op)
    for key, values in (ints_attrs or {}).items():
        attr = field_bytes(1, key) + b"".join(field_int(8, v) for v in values) + field_int(20, 7)  # INTS
        body += field_bytes(5, attr)
    for key, value in (int_attrs or {}).items():
        body += field_bytes(5, field_bytes(1, key) + field_int(3, value) + field_int(20, 2))  # INT
    return body


def model(name, nodes, output, output_type, extra_inputs=(), outputs=None, initializers=None, with_x=True):
    graph = b"".join(field_bytes(1, n) for n in nodes) + field_bytes(2, name)
    for tensor in [float_scalar("half", 0.5)] if initializers is None else initializers:
        graph += field_bytes(5, tensor)
    if with_x:
        graph += field_bytes(11, value_info("x", FLOAT, [3, 4]))
    graph += b"".join(field_bytes(11, value_info(n, t, d)) for n, t, d in extra_inputs)
    for out, out_type in outputs or [(output, output_type)]:
        graph += field_bytes(12, value_info(out, out_type))
    opset = field_bytes(1, "") + field_int(2, 13)
    data = field_int(1, 7) + field_bytes(2, "nncli tests") + field_bytes(7, graph) + field_bytes(8, opset)
    with open(name + ".onnx", "wb") as f:
        f.write(data)


mask = node("Greater", ["x", "half"], ["mask"])
nonzero = node("NonZero", ["mask"], ["indices"])
transpose = node("Transpose", ["indices"], ["coords"], {"perm": [1, 0]})
model("nonzero", [mask, nonzero], "indices", INT64)
model("nonzero_transpose", [mask, nonzero, transpose], "coords", INT64)
model("masked_select", [mask, nonzero, transpose, node("GatherND", ["x", "coords"], ["selected"])], "selected",
      FLOAT)

top_k_outputs = [("values", FLOAT), ("indices", INT64)]
top_k = node("TopK", ["x", "k"], ["values", "indices"], int_attrs={"axis": 1})
shape_k = [node("Shape", ["x"], ["shape"]), node("Gather", ["shape", "zero"], ["rows"], int_attrs={"axis": 0}),
           node("Reshape", ["rows", "one"], ["k"])]
model("topk_shape_k", shape_k + [top_k], None, None, outputs=top_k_outputs,
      initializers=[int64_tensor("zero", [0], []), int64_tensor("one", [1], [1])])
model("topk_input_k", [top_k], None, None, extra_inputs=[("k", INT64, [1])], outputs=top_k_outputs,
      initializers=[])

model("compress", [node("ReduceSum", ["x", "zero_axis"], ["sums"], int_attrs={"keepdims": 0}),
                   node("Greater", ["sums", "nothing"], ["keep"]),
                   node("Compress", ["x", "keep"], ["columns"], int_attrs={"axis": 1})], "columns", FLOAT,
      initializers=[int64_tensor("zero_axis", [0], [1]), float_scalar("nothing", 0.0)])
model("unique", [node("Mul", ["x", "two"], ["doubled"]), node("Round", ["doubled"], ["rounded"]),
                 node("Unique", ["rounded"], ["values", "first", "inverse", "counts"], int_attrs={"sorted": 1})],
      None, None, outputs=[("values", FLOAT), ("first", INT64), ("inverse", INT64), ("counts", INT64)],
      initializers=[float_scalar("two", 2.0)])
nms_inputs = [("boxes", FLOAT, [1, 8, 4]), ("scores", FLOAT, [1, 2, 8])]
model("nms", [node("NonMaxSuppression", ["boxes", "scores", "max_boxes", "iou", "min_score"], ["selected"])],
      "selected", INT64, extra_inputs=nms_inputs, with_x=False,
      initializers=[int64_tensor("max_boxes", [3], [1]), float_scalar("iou", 0.3, [1]),
                    float_scalar("min_score", 0.0, [1])])
