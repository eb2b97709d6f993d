# Empty dependencies file for nn_onnx_export_tests.
# This may be replaced when dependencies are built.
