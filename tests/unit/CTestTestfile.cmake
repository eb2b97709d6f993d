# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/unit
# Build directory: /work/wt-onnx18/tests/unit
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/wt-onnx18/tests/unit/nn_unit_tests[1]_include.cmake")
