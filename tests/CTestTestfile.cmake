# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests
# Build directory: /work/wt-onnx18/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("support")
subdirs("cli")
subdirs("cli_misc")
subdirs("cli_tools")
subdirs("csrc")
subdirs("data")
subdirs("formats")
subdirs("gpu")
subdirs("nnb")
subdirs("onnx")
subdirs("onnx_cli")
subdirs("onnx_export")
subdirs("onnx_ort")
subdirs("onnx_torch")
subdirs("ops")
subdirs("solvers")
subdirs("train")
subdirs("unit")
