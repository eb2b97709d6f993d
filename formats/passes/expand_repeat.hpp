// Expansion of repeat/recurrent loops into a plain DAG (docs/nnp_format.md#loop-expansion, the
// converter's naming).
#pragma once
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats {

// Unrolls every repeat_info entry, first entry first: loop variables become 'name_<id>_<i>' (per-iteration
// parameters: '{id}' -> '[i]'), loop functions 'name_<id>_<i>', RecurrentInput/RecurrentOutput become
// Split/Stack, RepeatStart/RepeatEnd/Delay disappear. Then the functions are sorted topologically
// (reverse DFS post-order); a cycle is an nn::Error. A network without repeat_info is only sorted.
ir::Network expand_network(const ir::Network& network);

// What expand_model makes of the optimizers' parameter_variable lists: the concrete names of upstream's
// expanded file, or the lists as given ({id} patterns and learning-rate multipliers, which say what trains).
enum class OptimizerLists { kExpanded, kKept };

// Every network expanded; executor (and, with kExpanded, optimizer) parameter_variable lists get the
// concrete parameter names (sorted by name; learning-rate multipliers are not carried over, as upstream).
// Parameters named in the legacy '...<id>[N]' style switch per-iteration parameters to 'name_<id>_<i>'.
ir::Model expand_model(ir::Model model, OptimizerLists optimizers = OptimizerLists::kExpanded);

// Step 4 alone: for each function in list order not yet visited, a DFS over consumers of its outputs;
// the result is the reverse post-order. Throws nn::Error naming the network on a cycle.
std::vector<ir::Function> sort_functions(const std::vector<ir::Function>& functions,
                                         const std::string& network_name);

}  // namespace nn::formats
