# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/ops
# Build directory: /work/wt-onnx18/tests/ops
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/wt-onnx18/tests/ops/nn_ops_tests[1]_include.cmake")
