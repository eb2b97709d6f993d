# Empty compiler generated dependencies file for nn_onnx_test_util.
# This may be replaced when dependencies are built.
