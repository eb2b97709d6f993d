# Empty compiler generated dependencies file for onnx_node_check.
# This may be replaced when dependencies are built.
