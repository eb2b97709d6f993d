// Idle OpenMP workers that spin on a quiet machine and sleep at once on a busy one (LLVM's libomp).
#pragma once

namespace nn {

// From now on each forward pass checks, at most every 100 ms, whether other processes took CPU time, and keeps
// idle workers spinning 1 ms (quiet) or lets them sleep at once (busy). nncli enables it; a program that embeds
// libnn keeps its own OpenMP settings. Also sets KMP_BLOCKTIME to that spin in the environment, which libomp reads
// when it starts. False where the runtime cannot change its spin time while running (libgomp reads GOMP_SPINCOUNT
// once).
bool enable_adaptive_wait();

// Whether those checks found a busy machine: others took half a CPU or more in two checks in a row, and not four
// quiet ones in a row since. False before the first check and without adaptive waits.
bool machine_busy();

}  // namespace nn
