# CMake generated Testfile for 
# Source directory: /work/wt-onnx18/tests/train
# Build directory: /work/wt-onnx18/tests/train
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/wt-onnx18/tests/train/test_train_engine[1]_include.cmake")
include("/work/wt-onnx18/tests/train/test_train_cli[1]_include.cmake")
include("/work/wt-onnx18/tests/train/test_train_nnc_samples[1]_include.cmake")
include("/work/wt-onnx18/tests/train/test_train_mpi[1]_include.cmake")
include("/work/wt-onnx18/tests/train/test_train_gpu[1]_include.cmake")
