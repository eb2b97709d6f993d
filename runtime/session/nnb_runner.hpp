// NNB inputs for infer and dump: load an .nnb as a runnable model, or render nnablart's dump of it.
#pragma once
#include <string>

#include "nn/ir/model.hpp"

namespace nncli {

bool is_nnb_file(const std::string& path);
// The NNB as a model with one executor "nnb" (data variables = NNB inputs, outputs = NNB outputs),
// run with nnabla-c-runtime's semantics; reader warnings (e.g. a garbage api_level) are logged.
nn::ir::Model load_nnb_model(const std::string& path);
// nnablart dump's text of the file.
std::string dump_nnb_file(const std::string& path);

}  // namespace nncli
