
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/tests/train/train_bad_input_test.cpp" "tests/train/CMakeFiles/test_train_cli.dir/train_bad_input_test.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_cli.dir/train_bad_input_test.cpp.o.d"
  "/work/wt-onnx18/tests/train/train_cli_misc_test.cpp" "tests/train/CMakeFiles/test_train_cli.dir/train_cli_misc_test.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_cli.dir/train_cli_misc_test.cpp.o.d"
  "/work/wt-onnx18/tests/train/train_cli_util.cpp" "tests/train/CMakeFiles/test_train_cli.dir/train_cli_util.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_cli.dir/train_cli_util.cpp.o.d"
  "/work/wt-onnx18/tests/train/train_loss_scaling_test.cpp" "tests/train/CMakeFiles/test_train_cli.dir/train_loss_scaling_test.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_cli.dir/train_loss_scaling_test.cpp.o.d"
  "/work/wt-onnx18/tests/train/train_parity_test.cpp" "tests/train/CMakeFiles/test_train_cli.dir/train_parity_test.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_cli.dir/train_parity_test.cpp.o.d"
  "/work/wt-onnx18/tests/train/train_resume_test.cpp" "tests/train/CMakeFiles/test_train_cli.dir/train_resume_test.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_cli.dir/train_resume_test.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/formats/CMakeFiles/nn_formats.dir/DependInfo.cmake"
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  "/work/wt-onnx18/proto/CMakeFiles/nn_proto.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
