
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/bench/bench_gpu.cpp" "bench/CMakeFiles/bench_gpu.dir/bench_gpu.cpp.o" "gcc" "bench/CMakeFiles/bench_gpu.dir/bench_gpu.cpp.o.d"
  "/work/wt-onnx18/bench/bench_models.cpp" "bench/CMakeFiles/bench_gpu.dir/bench_models.cpp.o" "gcc" "bench/CMakeFiles/bench_gpu.dir/bench_models.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-onnx18/libnn/CMakeFiles/nn.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
