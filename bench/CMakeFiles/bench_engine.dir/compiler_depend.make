# Empty compiler generated dependencies file for bench_engine.
# This may be replaced when dependencies are built.
