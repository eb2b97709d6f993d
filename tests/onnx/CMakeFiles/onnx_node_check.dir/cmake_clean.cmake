file(REMOVE_RECURSE
  "CMakeFiles/onnx_node_check.dir/onnx_node_check.cpp.o"
  "CMakeFiles/onnx_node_check.dir/onnx_node_check.cpp.o.d"
  "onnx_node_check"
  "onnx_node_check.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/onnx_node_check.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
