file(REMOVE_RECURSE
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/augment.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/augment.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/batch_norm.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/batch_norm.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/conv.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/conv.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/convert.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/convert.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/elementwise.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/elementwise.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/math.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/math.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/pooling.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/pooling.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/reduce_copy.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/reduce_copy.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/shape.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/shape.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/softmax.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/softmax.cu.o.d"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/solvers.cu.o"
  "CMakeFiles/nn_cuda_kernels.dir/src/cuda/kernels/solvers.cu.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang CUDA)
  include(CMakeFiles/nn_cuda_kernels.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
