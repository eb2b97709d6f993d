
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/tests/data/cache_data_source_test.cpp" "tests/data/CMakeFiles/test_data.dir/cache_data_source_test.cpp.o" "gcc" "tests/data/CMakeFiles/test_data.dir/cache_data_source_test.cpp.o.d"
  "/work/wt-onnx18/tests/data/csv_data_source_test.cpp" "tests/data/CMakeFiles/test_data.dir/csv_data_source_test.cpp.o" "gcc" "tests/data/CMakeFiles/test_data.dir/csv_data_source_test.cpp.o.d"
  "/work/wt-onnx18/tests/data/csv_text_test.cpp" "tests/data/CMakeFiles/test_data.dir/csv_text_test.cpp.o" "gcc" "tests/data/CMakeFiles/test_data.dir/csv_text_test.cpp.o.d"
  "/work/wt-onnx18/tests/data/data_iterator_test.cpp" "tests/data/CMakeFiles/test_data.dir/data_iterator_test.cpp.o" "gcc" "tests/data/CMakeFiles/test_data.dir/data_iterator_test.cpp.o.d"
  "/work/wt-onnx18/tests/data/forward_cli_test.cpp" "tests/data/CMakeFiles/test_data.dir/forward_cli_test.cpp.o" "gcc" "tests/data/CMakeFiles/test_data.dir/forward_cli_test.cpp.o.d"
  "/work/wt-onnx18/tests/data/forward_result_test.cpp" "tests/data/CMakeFiles/test_data.dir/forward_result_test.cpp.o" "gcc" "tests/data/CMakeFiles/test_data.dir/forward_result_test.cpp.o.d"
  "/work/wt-onnx18/tests/data/image_dataset_test.cpp" "tests/data/CMakeFiles/test_data.dir/image_dataset_test.cpp.o" "gcc" "tests/data/CMakeFiles/test_data.dir/image_dataset_test.cpp.o.d"
  "/work/wt-onnx18/tests/data/test_data_util.cpp" "tests/data/CMakeFiles/test_data.dir/test_data_util.cpp.o" "gcc" "tests/data/CMakeFiles/test_data.dir/test_data_util.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/formats/CMakeFiles/nn_formats.dir/DependInfo.cmake"
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  "/work/wt-onnx18/proto/CMakeFiles/nn_proto.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
