# Empty dependencies file for nn_op_tester.
# This may be replaced when dependencies are built.
