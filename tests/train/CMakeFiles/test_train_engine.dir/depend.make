# Empty dependencies file for test_train_engine.
# This may be replaced when dependencies are built.
