// convert -S / -c: split the executor network into pieces a tailored runtime can run, one output per piece.
#pragma once
#include "convert/convert_targets.hpp"

namespace nncli {

using ConvertExporter = void (*)(const nn::ir::Model&, const std::string&, const ConvertOptions&);

// When -S is given, or -c lists functions and the network uses others, exports every piece through `exporter`
// to <stem>_<a>_<b><ext>, prints upstream's YAML summary of the pieces on stdout and returns true. Returns
// false (nothing done) when no split is needed.
bool convert_in_pieces(const nn::ir::Model& model, const ConvertOptions& options, ConvertExporter exporter);

}  // namespace nncli
