
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/tests/gpu/test_augmentation.cpp" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_augmentation.cpp.o" "gcc" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_augmentation.cpp.o.d"
  "/work/wt-onnx18/tests/gpu/test_convolution.cpp" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_convolution.cpp.o" "gcc" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_convolution.cpp.o.d"
  "/work/wt-onnx18/tests/gpu/test_math.cpp" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_math.cpp.o" "gcc" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_math.cpp.o.d"
  "/work/wt-onnx18/tests/gpu/test_ops.cpp" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_ops.cpp.o" "gcc" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_ops.cpp.o.d"
  "/work/wt-onnx18/tests/gpu/test_pool_norm.cpp" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_pool_norm.cpp.o" "gcc" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_pool_norm.cpp.o.d"
  "/work/wt-onnx18/tests/gpu/test_shape.cpp" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_shape.cpp.o" "gcc" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_shape.cpp.o.d"
  "/work/wt-onnx18/tests/gpu/test_solvers.cpp" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_solvers.cpp.o" "gcc" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_solvers.cpp.o.d"
  "/work/wt-onnx18/tests/gpu/test_training.cpp" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_training.cpp.o" "gcc" "tests/gpu/CMakeFiles/nn_gpu_tests.dir/test_training.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
