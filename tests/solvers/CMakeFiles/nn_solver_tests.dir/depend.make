# Empty dependencies file for nn_solver_tests.
# This may be replaced when dependencies are built.
