# Empty dependencies file for nn_cuda_kernels.
# This may be replaced when dependencies are built.
