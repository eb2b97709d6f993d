# Empty compiler generated dependencies file for nn_formats_nnp_tests.
# This may be replaced when dependencies are built.
