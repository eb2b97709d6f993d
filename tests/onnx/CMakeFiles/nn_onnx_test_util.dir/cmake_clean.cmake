file(REMOVE_RECURSE
  "CMakeFiles/nn_onnx_test_util.dir/onnx_run_util.cpp.o"
  "CMakeFiles/nn_onnx_test_util.dir/onnx_run_util.cpp.o.d"
  "libnn_onnx_test_util.a"
  "libnn_onnx_test_util.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_onnx_test_util.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
