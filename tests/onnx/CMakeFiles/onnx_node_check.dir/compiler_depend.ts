# CMAKE generated file: DO NOT EDIT!
# Timestamp file for compiler generated dependencies management for onnx_node_check.
