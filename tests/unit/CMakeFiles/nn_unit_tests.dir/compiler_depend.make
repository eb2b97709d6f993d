# Empty compiler generated dependencies file for nn_unit_tests.
# This may be replaced when dependencies are built.
