# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/data
# Build directory: /work/wt-onnx18/tests/data
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/wt-onnx18/tests/data/test_data[1]_include.cmake")
