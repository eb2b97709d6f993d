// create_solver: the solver factory over solvers.def (type name -> implementation).
#include <string>
#include <vector>

#include "nn/core/error.hpp"
#include "solvers/solver_common.hpp"

namespace nn {

std::vector<std::string> supported_solvers() {
  return {
#define NN_SOLVER(Type, snake) #Type,
#include "nn/solvers/solvers.def"
#undef NN_SOLVER
  };
}

std::unique_ptr<Solver> create_solver(const std::string& type, const Attrs& params) {
  // nnabla_cli accepts the legacy spelling "SGD" for Sgd.
  const std::string name = type == "SGD" ? "Sgd" : type;
#define NN_SOLVER(Type, snake) \
  if (name == #Type) return solvers::make_##snake(params);
#include "nn/solvers/solvers.def"
#undef NN_SOLVER
  std::string list;
  for (const auto& s : supported_solvers()) list += (list.empty() ? "" : ", ") + s;
  NN_FAIL(ErrorCode::kInvalid) << "solver '" << type << "' is not supported (supported: " << list << ")";
}

}  // namespace nn
