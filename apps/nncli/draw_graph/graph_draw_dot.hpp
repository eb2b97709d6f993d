// draw_graph's picture of a network as Graphviz DOT text (upstream SimpleGraph's nodes, colors and scopes,
// plus variable shapes on the edges and one cluster per repeat loop).
#pragma once
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nncli {

// Variables no function consumes, in the order their producers appear (upstream's graph.outputs).
std::vector<std::string> network_outputs(const nn::ir::Network& network);

// The DOT text of the network: function nodes '<Type>-<k>' (filled squares colored by type, white text,
// labelled with the type and the common scope of their parameters), variable circles (parameters pink with
// the name relative to that scope, others lightgray ellipses, outlined black when they need a gradient),
// edges input -> function -> output labelled with the variable's shape, a 'Sink' joining several outputs, and
// functions/variables with a repeat_id inside nested 'cluster_<id>' subgraphs.
std::string network_to_dot(const nn::ir::Model& model, const nn::ir::Network& network);

}  // namespace nncli
