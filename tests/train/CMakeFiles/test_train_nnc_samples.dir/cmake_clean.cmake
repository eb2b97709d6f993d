file(REMOVE_RECURSE
  "CMakeFiles/test_train_nnc_samples.dir/train_cli_util.cpp.o"
  "CMakeFiles/test_train_nnc_samples.dir/train_cli_util.cpp.o.d"
  "CMakeFiles/test_train_nnc_samples.dir/train_nnc_samples_test.cpp.o"
  "CMakeFiles/test_train_nnc_samples.dir/train_nnc_samples_test.cpp.o.d"
  "test_train_nnc_samples"
  "test_train_nnc_samples.pdb"
  "test_train_nnc_samples[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/test_train_nnc_samples.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
