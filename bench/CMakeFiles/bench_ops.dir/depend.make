# Empty dependencies file for bench_ops.
# This may be replaced when dependencies are built.
