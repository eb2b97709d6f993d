// NNablaProtoBuf <-> ir::Model conversion (function and solver parameters through reflection).
#pragma once
#include <map>
#include <string>

#include "nn/ir/model.hpp"

namespace nnabla {
class NNablaProtoBuf;
class Network;
class Parameter;
class Solver;
class Context;
}  // namespace nnabla

namespace nn::formats::nnp {

// Largest element count accepted for a variable's shape (a -1 batch dim counts as 1): 2^34.
constexpr int64_t kMaxVariableElements = int64_t(1) << 34;

// Throws unless every dim is >= 0 or exactly -1 and the element count is sane.
void check_variable_shape(const Shape& shape, const std::string& what);

// Validates while converting: variable shapes, parameter data length vs shape, parameter messages
// that do not belong to the function type. Errors carry "network 'N': function 'f' (Type): ..." context.
ir::Model proto_to_model(const nnabla::NNablaProtoBuf& proto);
ir::Network proto_to_network(const nnabla::Network& proto);
ir::Parameter proto_to_parameter(const nnabla::Parameter& proto);
ir::Solver proto_to_solver(const nnabla::Solver& proto);
ir::Context proto_to_context(const nnabla::Context& proto);

struct ProtoParts {
  bool parameters = true;      // NNablaProtoBuf.parameter entries
  bool solver_states = false;  // Solver.states maps (normally kept out of text files)
};
nnabla::NNablaProtoBuf model_to_proto(const ir::Model& model, const ProtoParts& parts = {});
void network_to_proto(const ir::Network& network, nnabla::Network* proto);
void parameter_to_proto(const ir::Parameter& parameter, nnabla::Parameter* proto);
void solver_to_proto(const ir::Solver& solver, bool with_states, nnabla::Solver* proto);
void context_to_proto(const ir::Context& context, nnabla::Context* proto);

}  // namespace nn::formats::nnp
