
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-onnx18/libnn/src/cuda/kernels/augment.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/augment.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/augment.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/batch_norm.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/batch_norm.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/batch_norm.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/conv.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/conv.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/conv.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/convert.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/convert.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/convert.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/elementwise.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/elementwise.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/elementwise.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/math.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/math.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/math.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/pooling.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/pooling.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/pooling.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/reduce_copy.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/reduce_copy.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/reduce_copy.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/shape.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/shape.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/shape.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/softmax.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/softmax.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/softmax.cu.o.d"
  "/work/wt-onnx18/libnn/src/cuda/kernels/solvers.cu" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/solvers.cu.o" "gcc" "libnn/CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/solvers.cu.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
