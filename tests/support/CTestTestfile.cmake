# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/support
# Build directory: /work/wt-onnx18/tests/support
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
