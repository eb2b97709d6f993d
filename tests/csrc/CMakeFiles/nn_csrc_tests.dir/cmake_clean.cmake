file(REMOVE_RECURSE
  "CMakeFiles/nn_csrc_tests.dir/csrc_export_test.cpp.o"
  "CMakeFiles/nn_csrc_tests.dir/csrc_export_test.cpp.o.d"
  "CMakeFiles/nn_csrc_tests.dir/split_network_test.cpp.o"
  "CMakeFiles/nn_csrc_tests.dir/split_network_test.cpp.o.d"
  "nn_csrc_tests"
  "nn_csrc_tests.pdb"
  "nn_csrc_tests[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_csrc_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
