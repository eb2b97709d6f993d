# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/solvers
# Build directory: /work/wt-onnx18/tests/solvers
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/wt-onnx18/tests/solvers/nn_solver_tests[1]_include.cmake")
