# Empty compiler generated dependencies file for test_train_nnc_samples.
# This may be replaced when dependencies are built.
