// OpenMP wait policy: a short spin before sleeping, set before libgomp starts (it reads its settings at load).
#pragma once

namespace nncli {
// Re-executes nncli once with GOMP_SPINCOUNT set when the user set neither it nor OMP_WAIT_POLICY:
// libgomp's default spin (300k iterations) lets idle workers take the cores that other threads
// (data loading, other processes) need. Returns only when no re-exec happened.
void ensure_thread_policy(char** argv);
}  // namespace nncli
