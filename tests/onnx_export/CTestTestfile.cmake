# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/onnx_export
# Build directory: /work/wt-onnx18/tests/onnx_export
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/wt-onnx18/tests/onnx_export/nn_onnx_export_tests[1]_include.cmake")
