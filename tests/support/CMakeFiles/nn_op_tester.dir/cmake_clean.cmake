file(REMOVE_RECURSE
  "CMakeFiles/nn_op_tester.dir/op_tester.cpp.o"
  "CMakeFiles/nn_op_tester.dir/op_tester.cpp.o.d"
  "libnn_op_tester.a"
  "libnn_op_tester.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_op_tester.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
