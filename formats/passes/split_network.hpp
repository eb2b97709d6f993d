// Network splitting for a tailored runtime (docs/command_line.md#convert-splitting): function ranges from -S or
// from a supported-function set, the sub-model of each range, the output name of each piece and upstream's YAML
// summary of the pieces.
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats {

struct FunctionRange {
  int first = 0;  // function indices in the executor network, inclusive
  int last = 0;
};

// The network of executor 0 (what splitting works on); throws when the model has none.
const ir::Network& split_target_network(const ir::Model& model);
// Whether the network uses a function outside `supported`.
bool uses_unsupported(const ir::Network& network, const std::set<std::string>& supported);
// -S "a-b,c-,-d": empty a = 0, empty b = the last function. Throws (kUsage) with upstream's messages.
std::vector<FunctionRange> parse_split_ranges(const std::string& spec, int num_functions);
// Maximal runs of consecutive supported functions, in order.
std::vector<FunctionRange> supported_ranges(const ir::Network& network, const std::set<std::string>& supported);
// The sub-model of executor 0 holding functions range.first..range.last, their variables and parameters and
// one executor: data = Buffer inputs of the first function, outputs = Buffer outputs of the last one.
ir::Model shrink_model(const ir::Model& model, FunctionRange range);
// "dir/net.nnb" -> "dir/net_<first>_<last>.nnb".
std::string split_output_name(const std::string& output, FunctionRange range);
// Upstream's YAML summary: per output (sorted by name) its input and output variables with shapes.
std::string split_summary(const std::vector<std::pair<std::string, ir::Model>>& pieces);

}  // namespace nn::formats
