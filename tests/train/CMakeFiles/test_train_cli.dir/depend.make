# Empty dependencies file for test_train_cli.
# This may be replaced when dependencies are built.
