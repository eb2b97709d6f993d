# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/formats
# Build directory: /work/wt-onnx18/tests/formats
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/wt-onnx18/tests/formats/nn_formats_nnp_tests[1]_include.cmake")
