# Empty dependencies file for nn_ops_tests.
# This may be replaced when dependencies are built.
