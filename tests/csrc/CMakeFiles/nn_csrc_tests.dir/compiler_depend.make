# Empty compiler generated dependencies file for nn_csrc_tests.
# This may be replaced when dependencies are built.
