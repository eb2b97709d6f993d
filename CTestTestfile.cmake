# CMake generated Testfile for 
# Source directory: /work/wt-onnx18
# Build directory: /work/wt-onnx18
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("libnn")
subdirs("proto")
subdirs("formats")
subdirs("apps/nncli")
subdirs("bench")
subdirs("tests")
