
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/tests/train/loss_scaler_test.cpp" "tests/train/CMakeFiles/test_train_engine.dir/loss_scaler_test.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_engine.dir/loss_scaler_test.cpp.o.d"
  "/work/wt-onnx18/tests/train/lr_scheduler_test.cpp" "tests/train/CMakeFiles/test_train_engine.dir/lr_scheduler_test.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_engine.dir/lr_scheduler_test.cpp.o.d"
  "/work/wt-onnx18/tests/train/trainer_test.cpp" "tests/train/CMakeFiles/test_train_engine.dir/trainer_test.cpp.o" "gcc" "tests/train/CMakeFiles/test_train_engine.dir/trainer_test.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
