# Sourced by the bench scripts: start_busy runs two bounded CPU-bound loops per core (each ends by itself
# after 10 minutes at most), stop_busy ends them; scripts call stop_busy on exit.
busy_pids=()
stop_busy() {
  for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${busy_pids[@]}"; do wait "$p" 2>/dev/null || true; done
  busy_pids=()
}
start_busy() {
  local n=$(( $(nproc) * 2 ))
  for _ in $(seq "$n"); do
    timeout 600 bash -c 'while :; do :; done' &
    busy_pids+=($!)
  done
  sleep 0.5
}
