file(REMOVE_RECURSE
  "CMakeFiles/nn_nnb_tests.dir/nnb_golden_test.cpp.o"
  "CMakeFiles/nn_nnb_tests.dir/nnb_golden_test.cpp.o.d"
  "CMakeFiles/nn_nnb_tests.dir/nnb_malformed_test.cpp.o"
  "CMakeFiles/nn_nnb_tests.dir/nnb_malformed_test.cpp.o.d"
  "CMakeFiles/nn_nnb_tests.dir/nnb_test_util.cpp.o"
  "CMakeFiles/nn_nnb_tests.dir/nnb_test_util.cpp.o.d"
  "CMakeFiles/nn_nnb_tests.dir/nnb_writer_test.cpp.o"
  "CMakeFiles/nn_nnb_tests.dir/nnb_writer_test.cpp.o.d"
  "nn_nnb_tests"
  "nn_nnb_tests.pdb"
  "nn_nnb_tests[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_nnb_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
