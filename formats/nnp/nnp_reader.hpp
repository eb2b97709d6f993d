// Loading NNP models: .nnp archives (or directories), .nntxt/.prototxt, .protobuf and .h5 files, merged in
// order.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats {

struct LoadOptions {
  bool parameters = true;       // false: parameter entries and files are skipped (train's --config)
  bool solver_states = true;    // attach '*.optimizer' members to their optimizers (unreadable: warning)
  bool require_network = true;  // an .nnp (or directory) without a *.nntxt/*.prototxt member is an error
};

// Merges the files in order like nnabla_cli: text/binary NNablaProtoBuf with protobuf merge semantics
// (repeated fields append, scalars overwrite), then parameters (a later parameter of the same name
// replaces the earlier one in place). Inside an .nnp every text member is merged first, then the
// .protobuf/.h5 members, then the solver states. Throws nn::Error (kInvalid) naming the file.
ir::Model load_model(const std::vector<std::string>& paths);
ir::Model load_model(const std::vector<std::string>& paths, const LoadOptions& options);

// Parameters and solver states from one file (.nnp, directory, .h5, .protobuf, .nntxt) into model:
// same-named parameters are replaced, new ones appended; states go to optimizers matched by name.
void load_parameters_into(ir::Model& model, const std::string& path);

// A model from NNablaProtoBuf text held in memory (display_name appears in errors).
ir::Model parse_nntxt(std::string_view text, const std::string& display_name);

}  // namespace nn::formats
