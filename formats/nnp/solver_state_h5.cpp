// Solver-state HDF5 reading and writing.
#include "formats/nnp/solver_state_h5.hpp"

#include <algorithm>
#include <set>

#include "formats/common/hdf5_file.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::nnp {

namespace {

// Upstream's state order per solver type (docs/nnp_format.md#solver-state-files); unknown solvers use name order.
std::vector<std::string> known_state_order(const std::string& type) {
  static const std::map<std::string, std::vector<std::string>> kOrder = {
      {"Adam", {"mean", "var"}},
      {"AdamW", {"mean", "var"}},
      {"AdaBound", {"mean", "var"}},
      {"Lamb", {"mean", "var"}},
      {"AdaBelief", {"mean", "var", "s_max"}},
      {"Adadelta", {"e_sqr_grad", "e_sqr_delta"}},
      {"Adagrad", {"v"}},
      {"Adamax", {"m", "u"}},
      {"AMSGRAD", {"m", "v", "v_hat"}},
      {"AMSBound", {"m", "v", "v_hat"}},
      {"Lars", {"v"}},
      {"Lion", {"m"}},
      {"Momentum", {"m"}},
      {"Nesterov", {"m"}},
      {"SgdW", {"m"}},
      {"RMSprop", {"v"}},
      {"RMSpropGraves", {"n", "g", "d"}},
  };
  auto it = kOrder.find(type);
  return it == kOrder.end() ? std::vector<std::string>{} : it->second;
}

std::string strip_cuda(const std::string& type) {
  const std::string suffix = "Cuda";
  if (type.size() > suffix.size() && type.compare(type.size() - suffix.size(), suffix.size(), suffix) == 0)
    return type.substr(0, type.size() - suffix.size());
  return type;
}

std::string parent_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}
std::string leaf_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string solver_state_member_name(const ir::Optimizer& optimizer) {
  return optimizer.name + "_" + strip_cuda(optimizer.solver.type) + "_optimizer.h5.optimizer";
}

namespace {
// The states of every parameter group (those holding an update count 't').
std::map<std::string, ir::SolverState> read_states(std::string_view bytes, const std::string& display_name) {
  h5::QuietErrors quiet;
  h5::Handle file = h5::open_image(bytes, display_name);  // names the file in its errors
  return with_context("'" + display_name + "'", [&] {
    std::vector<h5::Entry> entries = h5::list_objects(file.get());
    std::set<std::string> parameters;  // groups that hold a 't' dataset
    for (const auto& e : entries)
      if (e.is_dataset && leaf_of(e.path) == "t" && !parent_of(e.path).empty())
        parameters.insert(parent_of(e.path));
    std::map<std::string, ir::SolverState> states;
    for (const auto& param : parameters) {
      h5::Handle t(h5::open_dataset(file.get(), param + "/t"));
      NN_CHECK(t.valid()) << "parameter '" << param << "': " << h5::last_error();
      int64_t count = h5::read_scalar_int_dataset(t.get(), "update count 't' of '" + param + "'");
      NN_CHECK(count >= 0 && count <= int64_t(UINT32_MAX))
          << "parameter '" << param << "': bad update count " << count;
      states[param].t = uint32_t(count);
    }
    for (const auto& e : entries) {
      if (!e.is_dataset || leaf_of(e.path) == "t" || !parameters.count(parent_of(e.path))) continue;
      const std::string what = "state '" + e.path + "'";
      h5::Handle dset(h5::open_dataset(file.get(), e.path));
      NN_CHECK(dset.valid()) << what << ": " << h5::last_error();
      ir::SolverStateParameter sp;
      sp.shape = h5::dataset_shape(dset.get());
      sp.data = h5::read_dataset_as_float(dset.get(), what);
      states[parent_of(e.path)].state_parameter[leaf_of(e.path)] = std::move(sp);
    }
    return states;
  });
}
}  // namespace

std::map<std::string, ir::SolverState> read_h5_solver_states(std::string_view bytes,
                                                             const std::string& display_name) {
  return h5::read_guarded(display_name, [&] { return read_states(bytes, display_name); });
}

std::string h5_solver_states_image(const ir::Solver& solver, const std::vector<std::string>& parameter_order) {
  h5::QuietErrors quiet;
  h5::Handle file = h5::create_memory_file();
  std::vector<std::string> order;
  std::set<std::string> listed;
  for (const auto& p : parameter_order)
    if (solver.states.count(p) && listed.insert(p).second) order.push_back(p);
  for (const auto& [p, state] : solver.states)
    if (!listed.count(p)) order.push_back(p);
  const std::vector<std::string> state_order = known_state_order(strip_cuda(solver.type));
  int64_t group_index = 0;
  for (const auto& param : order) {
    const ir::SolverState& state = solver.states.at(param);
    h5::Handle group = h5::create_group_path(file.get(), param);
    h5::write_int64_attribute(group.get(), "index", group_index++);
    h5::write_int64_scalar_dataset(group.get(), "t", int64_t(state.t));
    std::vector<std::string> names;
    for (const auto& n : state_order)
      if (state.state_parameter.count(n)) names.push_back(n);
    for (const auto& [n, sp] : state.state_parameter)
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    int64_t state_index = 0;
    for (const auto& n : names) {
      const ir::SolverStateParameter& sp = state.state_parameter.at(n);
      NN_CHECK(n != "t" && n.find('/') == std::string::npos)
          << "parameter '" << param << "': bad state name '" << n << "'";
      NN_CHECK(shape_size(sp.shape) == int64_t(sp.data.size()))
          << "parameter '" << param << "': state '" << n << "' does not match its shape";
      h5::Handle dset = h5::write_float_dataset(group.get(), n, sp.shape, sp.data.data());
      h5::write_int64_attribute(dset.get(), "index", state_index++);
    }
  }
  return h5::image(file.get());
}

}  // namespace nn::formats::nnp
