
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/tests/formats/batch_size_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/batch_size_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/batch_size_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/expand_golden_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/expand_golden_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/expand_golden_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/expand_repeat_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/expand_repeat_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/expand_repeat_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/file_format_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/file_format_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/file_format_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/formats_test_util.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/formats_test_util.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/formats_test_util.cpp.o.d"
  "/work/wt-onnx18/tests/formats/host_files_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/host_files_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/host_files_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/nnp_malformed_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/nnp_malformed_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/nnp_malformed_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/nnp_roundtrip_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/nnp_roundtrip_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/nnp_roundtrip_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/nnp_testdata_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/nnp_testdata_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/nnp_testdata_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/nntxt_reader_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/nntxt_reader_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/nntxt_reader_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/parameter_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/parameter_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/parameter_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/reflect_attrs_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/reflect_attrs_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/reflect_attrs_test.cpp.o.d"
  "/work/wt-onnx18/tests/formats/zip_archive_test.cpp" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/zip_archive_test.cpp.o" "gcc" "tests/formats/CMakeFiles/nn_formats_nnp_tests.dir/zip_archive_test.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/formats/CMakeFiles/nn_formats.dir/DependInfo.cmake"
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  "/work/wt-onnx18/proto/CMakeFiles/nn_proto.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
