# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/formats/nnb
# Build directory: /work/wt-onnx18/formats/nnb
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
