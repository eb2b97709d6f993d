# Empty compiler generated dependencies file for nn_gpu_tests.
# This may be replaced when dependencies are built.
