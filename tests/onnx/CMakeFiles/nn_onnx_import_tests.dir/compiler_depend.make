# Empty compiler generated dependencies file for nn_onnx_import_tests.
# This may be replaced when dependencies are built.
