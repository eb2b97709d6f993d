// `nncli dump x.nnb`: the decoded NNB in nnablart dump's layout.
#pragma once
#include <string>

#include "formats/nnb/nnb_file.hpp"

namespace nn::formats::nnb {

std::string dump_nnb(const NnbNetwork& network);

}  // namespace nn::formats::nnb
