
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/tests/unit/test_fast_math.cpp" "tests/unit/CMakeFiles/nn_unit_tests.dir/test_fast_math.cpp.o" "gcc" "tests/unit/CMakeFiles/nn_unit_tests.dir/test_fast_math.cpp.o.d"
  "/work/wt-onnx18/tests/unit/test_graph.cpp" "tests/unit/CMakeFiles/nn_unit_tests.dir/test_graph.cpp.o" "gcc" "tests/unit/CMakeFiles/nn_unit_tests.dir/test_graph.cpp.o.d"
  "/work/wt-onnx18/tests/unit/test_graph_builder.cpp" "tests/unit/CMakeFiles/nn_unit_tests.dir/test_graph_builder.cpp.o" "gcc" "tests/unit/CMakeFiles/nn_unit_tests.dir/test_graph_builder.cpp.o.d"
  "/work/wt-onnx18/tests/unit/test_ndarray.cpp" "tests/unit/CMakeFiles/nn_unit_tests.dir/test_ndarray.cpp.o" "gcc" "tests/unit/CMakeFiles/nn_unit_tests.dir/test_ndarray.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
