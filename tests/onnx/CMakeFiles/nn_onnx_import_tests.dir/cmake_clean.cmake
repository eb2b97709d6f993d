file(REMOVE_RECURSE
  "CMakeFiles/nn_onnx_import_tests.dir/onnx_import_test.cpp.o"
  "CMakeFiles/nn_onnx_import_tests.dir/onnx_import_test.cpp.o.d"
  "nn_onnx_import_tests"
  "nn_onnx_import_tests.pdb"
  "nn_onnx_import_tests[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_onnx_import_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
