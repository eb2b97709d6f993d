# Empty compiler generated dependencies file for test_train_gpu.
# This may be replaced when dependencies are built.
