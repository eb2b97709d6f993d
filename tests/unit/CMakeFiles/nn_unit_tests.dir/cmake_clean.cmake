file(REMOVE_RECURSE
  "CMakeFiles/nn_unit_tests.dir/test_fast_math.cpp.o"
  "CMakeFiles/nn_unit_tests.dir/test_fast_math.cpp.o.d"
  "CMakeFiles/nn_unit_tests.dir/test_graph.cpp.o"
  "CMakeFiles/nn_unit_tests.dir/test_graph.cpp.o.d"
  "CMakeFiles/nn_unit_tests.dir/test_graph_builder.cpp.o"
  "CMakeFiles/nn_unit_tests.dir/test_graph_builder.cpp.o.d"
  "CMakeFiles/nn_unit_tests.dir/test_ndarray.cpp.o"
  "CMakeFiles/nn_unit_tests.dir/test_ndarray.cpp.o.d"
  "nn_unit_tests"
  "nn_unit_tests.pdb"
  "nn_unit_tests[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_unit_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
