#!/usr/bin/python3
# Arm NN (Debian python3-pyarmnn 20.08, TfLite parser, CpuRef backend) runner for nncli's TFLite tests.
#
#   armnn_run.py run MODEL.tflite PREFIX [--nchw] IN.npy...   write PREFIX_<j>.npy per subgraph output;
#       --nchw: rank-4 inputs are (N, C, H, W) files fed as NHWC, rank-4 outputs written back as (N, C, H, W)
# Exit 77 when pyarmnn is not installed (Debian: python3-pyarmnn libarmnn-cpuref-backend22).
import sys

try:
    import numpy as np
    import pyarmnn as ann
except ImportError as e:
    print(f"SKIP: Arm NN is not available ({e}); apt-get install python3-pyarmnn libarmnn-cpuref-backend22")
    sys.exit(77)


def run(model, prefix, nchw, files):
    parser = ann.ITfLiteParser()
    try:
        net = parser.CreateNetworkFromBinaryFile(model)
    except RuntimeError as e:
        if "Operator not supported" in str(e):  # a gap of Arm NN 20.08's TfLite parser, not of the file
            op = str(e).split(" / ")[-1].split()[0] if " / " in str(e) else "?"
            print(f"SKIP: Arm NN 20.08 cannot parse operator {op}")
            sys.exit(77)
        raise
    in_names = parser.GetSubgraphInputTensorNames(0)
    out_names = parser.GetSubgraphOutputTensorNames(0)
    if len(files) != len(in_names):
        raise SystemExit(f"armnn_run.py: {model} has {len(in_names)} input(s), {len(files)} file(s) given")
    runtime = ann.IRuntime(ann.CreationOptions())
    optimized, _ = ann.Optimize(net, [ann.BackendId("CpuRef")], runtime.GetDeviceSpec(), ann.OptimizerOptions())
    net_id, _ = runtime.LoadNetwork(optimized)
    bindings = [parser.GetNetworkInputBindingInfo(0, n) for n in in_names]
    arrays = []
    for f in files:
        a = np.load(f)
        if nchw and a.ndim == 4:
            a = a.transpose(0, 2, 3, 1)
        arrays.append(np.ascontiguousarray(a))
    inputs = ann.make_input_tensors(bindings, arrays)
    outputs = ann.make_output_tensors([parser.GetNetworkOutputBindingInfo(0, n) for n in out_names])
    runtime.EnqueueWorkload(net_id, inputs, outputs)
    for j, r in enumerate(ann.workload_tensors_to_ndarray(outputs)):
        if nchw and r.ndim == 4:
            r = r.transpose(0, 3, 1, 2)
        np.save(f"{prefix}_{j}.npy", np.ascontiguousarray(r))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--nchw"]
    if len(args) < 3 or args[0] != "run":
        raise SystemExit("usage: armnn_run.py run MODEL.tflite PREFIX [--nchw] IN.npy...")
    run(args[1], args[2], "--nchw" in sys.argv, args[3:])
