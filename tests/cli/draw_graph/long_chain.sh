#!/usr/bin/env bash
# Writes chain.nntxt, a network of N ReLU functions in a chain, then runs the command that follows '--'.
#   long_chain.sh N -- COMMAND...
set -eu
n=$1; shift 2
{
  echo 'network { name: "chain" batch_size: 1'
  echo '  variable { name: "v0" type: "Buffer" shape { dim: -1 dim: 2 } }'
  for ((i = 1; i <= n; i++)); do
    echo "  variable { name: \"v$i\" type: \"Buffer\" shape { dim: -1 dim: 2 } }"
    echo "  function { name: \"f$i\" type: \"ReLU\" input: \"v$((i - 1))\" output: \"v$i\" }"
  done
  echo '}'
} > chain.nntxt
exec "$@"
