// The collective SyncBatchNormalization needs under data-parallel training (docs/command_line.md#train-mpi).
// Ops know no communicator: the owner of the process-wide one (nn::train::set_process_communicator)
// registers its sum here, as NdArray's devices are registered with register_device.
#pragma once
#include <cstddef>
#include <functional>

namespace nn::ops {

// In-place sums of data[0, n) over every process of the group; all processes call it in the same order.
using ProcessAllReduceSum = std::function<void(double* data, size_t n)>;

// Registers the sum of a distributed process group; an empty one (the default) means this process runs alone.
void set_process_all_reduce_sum(ProcessAllReduceSum sum);
// The registered sum, empty when this process runs alone.
ProcessAllReduceSum process_all_reduce_sum();

}  // namespace nn::ops
