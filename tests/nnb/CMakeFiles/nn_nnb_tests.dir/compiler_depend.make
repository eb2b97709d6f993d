# Empty compiler generated dependencies file for nn_nnb_tests.
# This may be replaced when dependencies are built.
