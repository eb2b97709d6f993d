# Empty compiler generated dependencies file for test_train_mpi.
# This may be replaced when dependencies are built.
