file(REMOVE_RECURSE
  "CMakeFiles/nn_gpu_tests.dir/test_augmentation.cpp.o"
  "CMakeFiles/nn_gpu_tests.dir/test_augmentation.cpp.o.d"
  "CMakeFiles/nn_gpu_tests.dir/test_convolution.cpp.o"
  "CMakeFiles/nn_gpu_tests.dir/test_convolution.cpp.o.d"
  "CMakeFiles/nn_gpu_tests.dir/test_math.cpp.o"
  "CMakeFiles/nn_gpu_tests.dir/test_math.cpp.o.d"
  "CMakeFiles/nn_gpu_tests.dir/test_ops.cpp.o"
  "CMakeFiles/nn_gpu_tests.dir/test_ops.cpp.o.d"
  "CMakeFiles/nn_gpu_tests.dir/test_pool_norm.cpp.o"
  "CMakeFiles/nn_gpu_tests.dir/test_pool_norm.cpp.o.d"
  "CMakeFiles/nn_gpu_tests.dir/test_shape.cpp.o"
  "CMakeFiles/nn_gpu_tests.dir/test_shape.cpp.o.d"
  "CMakeFiles/nn_gpu_tests.dir/test_solvers.cpp.o"
  "CMakeFiles/nn_gpu_tests.dir/test_solvers.cpp.o.d"
  "CMakeFiles/nn_gpu_tests.dir/test_training.cpp.o"
  "CMakeFiles/nn_gpu_tests.dir/test_training.cpp.o.d"
  "nn_gpu_tests"
  "nn_gpu_tests.pdb"
  "nn_gpu_tests[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nn_gpu_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
