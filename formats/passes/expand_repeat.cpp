// Expansion of repeat/recurrent loops (docs/nnp_format.md#loop-expansion) and the model-level
// parameter-list rewrite.
#include "formats/passes/expand_repeat.hpp"

#include <algorithm>
#include <regex>
#include <unordered_map>
#include <unordered_set>

#include "nn/core/error.hpp"
#include "nn/ir/function_label.hpp"

namespace nn::formats {

namespace {

using NameLists = std::unordered_map<std::string, std::vector<std::string>>;

struct ExpandState {
  NameLists original_parameters;  // parameter name -> its concrete names, in iteration order
  bool old_parameter_naming = false;
};

std::string suffixed(const std::string& name, const std::string& id, int64_t i) {
  return name + "_" + id + "_" + std::to_string(i);
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
  return s;
}

bool remove_id(std::vector<std::string>& ids, const std::string& id) {
  auto it = std::find(ids.begin(), ids.end(), id);
  if (it == ids.end()) return false;
  ids.erase(it);
  return true;
}

bool has_id(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

void check_arity(const ir::Function& f, size_t inputs, size_t outputs) {
  NN_CHECK(f.inputs.size() >= inputs && f.outputs.size() >= outputs)
      << ir::label(f) << ": needs " << inputs << " input(s) and " << outputs << " output(s)";
}

// RepeatStart/RepeatEnd name their loop in repeat_param; Delay and RecurrentInput/Output in recurrent_param.
bool loop_control_of(const ir::Function& f, const char* type, const std::string& id) {
  if (f.type != type) return false;
  if (f.type == "RepeatStart" || f.type == "RepeatEnd") return f.repeat_param && f.repeat_param->repeat_id == id;
  return f.recurrent_param && f.recurrent_param->repeat_id == id;
}

// Largest number of variables or functions an expansion may produce (guards nested loops of absurd size).
constexpr size_t kMaxExpandedNodes = 10000000;

// Throws before copying anything when unrolling `times` iterations would exceed kMaxExpandedNodes.
template <class Items>
void check_growth(const Items& items, const std::string& id, int64_t times, const char* what) {
  uint64_t looped = 0;
  for (const auto& item : items) looped += has_id(item.repeat_id, id);
  NN_CHECK(items.size() + looped * uint64_t(times - 1) <= kMaxExpandedNodes)
      << "repeat_info '" << id << "': unrolling " << times << " iterations would create more than "
      << kMaxExpandedNodes << " " << what;
}

// One repeat_info entry (the first) of net unrolled.
ir::Network expand_first_loop(const ir::Network& net, ExpandState& st) {
  const std::string id = net.repeat_info.front().id;
  const int64_t times = net.repeat_info.front().times;
  NN_CHECK(times >= 1 && times <= 1000000) << "repeat_info '" << id << "': bad times " << times;
  ir::Network out;
  out.name = net.name;
  out.batch_size = net.batch_size;
  out.repeat_info.assign(net.repeat_info.begin() + 1, net.repeat_info.end());

  check_growth(net.variables, id, times, "variables");
  check_growth(net.functions, id, times, "functions");

  // 1. Variables.
  std::unordered_set<std::string> looped, declared;
  for (const auto& v : net.variables) {
    declared.insert(v.name);
    const bool parameter = v.type == "Parameter";
    if (parameter) st.original_parameters.try_emplace(v.name);
    if (!has_id(v.repeat_id, id)) {
      if (parameter && v.repeat_id.empty() && st.original_parameters[v.name].empty())
        st.original_parameters[v.name].push_back(v.name);
      out.variables.push_back(v);
      continue;
    }
    // A parameter inside the loop whose name has no '{id}' marker (NNC files of 2017) is one parameter
    // shared by every iteration, as upstream expands it; copying it under one name per iteration made
    // the name lists grow exponentially with nested loops.
    if (parameter && !st.old_parameter_naming && v.name.find("{" + id + "}") == std::string::npos) {
      ir::Variable shared = v;
      remove_id(shared.repeat_id, id);
      if (st.original_parameters[v.name].empty()) st.original_parameters[v.name].push_back(v.name);
      out.variables.push_back(std::move(shared));
      continue;
    }
    looped.insert(v.name);
    for (int64_t i = 0; i < times; ++i) {
      ir::Variable copy = v;
      remove_id(copy.repeat_id, id);
      if (parameter) {
        copy.name = st.old_parameter_naming ? suffixed(v.name, id, i)
                                            : replace_all(v.name, "{" + id + "}", "[" + std::to_string(i) + "]");
        st.original_parameters[v.name].push_back(copy.name);
      } else {
        copy.name = suffixed(v.name, id, i);
      }
      out.variables.push_back(std::move(copy));
    }
  }

  // 2. Delay, RepeatEnd and RepeatStart maps.
  NameLists delay, end, start;
  for (const auto& f : net.functions) {
    if (loop_control_of(f, "Delay", id)) {
      check_arity(f, 2, 1);
      auto& list = delay[f.outputs[0]];
      list.push_back(f.inputs[1]);
      for (int64_t i = 0; i + 1 < times; ++i) list.push_back(suffixed(f.inputs[0], id, i));
    } else if (loop_control_of(f, "RepeatEnd", id)) {
      check_arity(f, 1, 1);
      NN_CHECK(f.repeat_param->times >= 0 && f.repeat_param->times <= times)
          << ir::label(f) << ": times " << f.repeat_param->times << " does not fit repeat_info '" << id << "' ("
          << times << ")";
      auto& list = end[f.outputs[0]];
      for (int64_t i = 0; i < f.repeat_param->times; ++i) list.push_back(suffixed(f.inputs[0], id, i));
    }
  }
  auto end_at = [&](const std::string& x, int64_t i) -> const std::string& {
    const auto& list = end.at(x);
    NN_CHECK(i >= 0 && size_t(i) < list.size())
        << "RepeatEnd output '" << x << "' has " << list.size() << " iterations, " << i + 1 << " needed";
    return list[size_t(i)];
  };
  for (const auto& f : net.functions) {
    if (!loop_control_of(f, "RepeatStart", id)) continue;
    check_arity(f, 2, 1);
    auto& list = start[f.outputs[0]];
    list.push_back(end.count(f.inputs[0]) ? end_at(f.inputs[0], times - 1) : f.inputs[0]);
    for (int64_t i = 1; i < times; ++i)
      list.push_back(end.count(f.inputs[1]) ? end_at(f.inputs[1], i - 1) : suffixed(f.inputs[1], id, i - 1));
  }

  // 3. Functions.
  auto map_input = [&](const std::string& x, int64_t i) -> std::string {
    if (auto it = st.original_parameters.find(x); it != st.original_parameters.end())
      return int64_t(it->second.size()) == times ? it->second[size_t(i)] : x;
    if (auto it = start.find(x); it != start.end()) return it->second[size_t(i)];
    if (end.count(x)) return end_at(x, i);
    if (auto it = delay.find(x); it != delay.end()) return it->second[size_t(i)];
    // A declared variable outside this loop is shared by all iterations (upstream would dangle here).
    if (declared.count(x) && !looped.count(x)) return x;
    return suffixed(x, id, i);
  };
  for (const auto& f : net.functions) {
    if (loop_control_of(f, "RepeatStart", id) || loop_control_of(f, "RepeatEnd", id) ||
        loop_control_of(f, "Delay", id))
      continue;
    if (loop_control_of(f, "RecurrentInput", id) || loop_control_of(f, "RecurrentOutput", id)) {
      const bool is_input = f.type == "RecurrentInput";
      check_arity(f, 1, 1);
      ir::Function g = f;
      g.type = is_input ? "Split" : "Stack";
      g.has_param = true;
      g.attrs = Attrs{{"axis", f.recurrent_param->axis}};
      g.recurrent_param.reset();
      remove_id(g.repeat_id, id);
      auto& names = is_input ? g.outputs : g.inputs;
      const std::string base = names[0];
      names.clear();
      for (int64_t i = 0; i < times; ++i) names.push_back(suffixed(base, id, i));
      out.functions.push_back(std::move(g));
      continue;
    }
    if (!has_id(f.repeat_id, id)) {
      ir::Function g = f;
      for (auto& x : g.inputs)
        if (end.count(x)) x = end_at(x, times - 1);
      out.functions.push_back(std::move(g));
      continue;
    }
    for (int64_t i = 0; i < times; ++i) {
      ir::Function g = f;
      remove_id(g.repeat_id, id);
      g.name = suffixed(f.name, id, i);
      for (auto& x : g.inputs) x = map_input(x, i);
      for (auto& o : g.outputs) o = suffixed(o, id, i);
      out.functions.push_back(std::move(g));
    }
  }
  return out;
}

ir::Network expand_with_state(const ir::Network& network, ExpandState& st) {
  return with_context("network '" + network.name + "'", [&] {
    ir::Network net = network;
    while (!net.repeat_info.empty()) net = expand_first_loop(net, st);
    net.functions = sort_functions(net.functions, net.name);
    return net;
  });
}

// Concrete names of a parameter, following nested loops down to names that expand no further.
void concrete_names(const std::string& name, const NameLists& lists, std::vector<std::string>& out,
                    int depth = 0) {
  auto it = lists.find(name);
  if (it == lists.end() || it->second.empty() || depth > 64 || (it->second.size() == 1 && it->second[0] == name)) {
    out.push_back(name);
    return;
  }
  for (const auto& n : it->second) concrete_names(n, lists, out, depth + 1);
}

std::vector<ir::ParameterVariable> rewrite_parameter_list(const std::vector<ir::ParameterVariable>& list,
                                                          const NameLists& lists) {
  std::vector<std::string> names;
  for (const auto& pv : list) concrete_names(pv.variable_name, lists, names);
  std::sort(names.begin(), names.end());
  std::vector<ir::ParameterVariable> out;
  for (auto& n : names) out.push_back({std::move(n), 0.0});
  return out;
}

// Legacy files name stored loop parameters '...<id>[N]' (N < times of that loop).
bool uses_old_parameter_naming(const ir::Model& model, const ir::Network& net) {
  for (const auto& info : net.repeat_info) {
    for (const auto& p : model.parameters) {
      const std::string& name = p.name;
      size_t open = name.rfind('[');
      if (open == std::string::npos || name.back() != ']' || open < info.id.size()) continue;
      if (name.compare(open - info.id.size(), info.id.size(), info.id) != 0) continue;
      std::string digits = name.substr(open + 1, name.size() - open - 2);
      if (digits.empty() || digits.size() > 9 ||
          !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        continue;
      if (std::stoll(digits) < info.times) return true;
    }
  }
  return false;
}

}  // namespace

ir::Network expand_network(const ir::Network& network) {
  ExpandState st;
  return expand_with_state(network, st);
}

ir::Model expand_model(ir::Model model, OptimizerLists optimizers) {
  ir::Model out = std::move(model);
  std::unordered_map<std::string, NameLists> lists_by_network;
  for (auto& net : out.networks) {
    ExpandState st;
    st.old_parameter_naming = uses_old_parameter_naming(out, net);
    net = expand_with_state(net, st);
    lists_by_network[net.name] = std::move(st.original_parameters);
  }
  static const NameLists kEmpty;
  auto lists_for = [&](const std::string& network) -> const NameLists& {
    auto it = lists_by_network.find(network);
    return it == lists_by_network.end() ? kEmpty : it->second;
  };
  if (optimizers == OptimizerLists::kExpanded)
    for (auto& o : out.optimizers)
      o.parameter_variable = rewrite_parameter_list(o.parameter_variable, lists_for(o.network_name));
  for (auto& e : out.executors)
    e.parameter_variable = rewrite_parameter_list(e.parameter_variable, lists_for(e.network_name));
  return out;
}

}  // namespace nn::formats
