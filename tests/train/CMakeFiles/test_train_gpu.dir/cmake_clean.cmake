file(REMOVE_RECURSE
  "CMakeFiles/test_train_gpu.dir/train_cli_util.cpp.o"
  "CMakeFiles/test_train_gpu.dir/train_cli_util.cpp.o.d"
  "CMakeFiles/test_train_gpu.dir/train_gpu_test.cpp.o"
  "CMakeFiles/test_train_gpu.dir/train_gpu_test.cpp.o.d"
  "test_train_gpu"
  "test_train_gpu.pdb"
  "test_train_gpu[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/test_train_gpu.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
