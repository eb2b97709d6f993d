// draw_graph's DOT text for one network (see graph_draw_dot.hpp).
#include "draw_graph/graph_draw_dot.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace nncli {

namespace {

using nn::ir::Function;
using nn::ir::Network;

// A DOT double-quoted string; newlines become centered line breaks.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

const char* function_color(const std::string& type) {
  auto has = [&](const char* part) { return type.find(part) != std::string::npos; };
  if (has("Conv")) return "blue";
  if (has("Affine")) return "red";
  if (has("Norm")) return "orange";
  if (has("ReLU")) return "green";
  if (has("Pool")) return "lightblue2";
  if (has("Add") || has("Sub") || has("Mul") || has("Div")) return "purple";
  return "gray";
}

std::string shape_label(const nn::Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += shape[i] < 0 ? "N" : std::to_string(shape[i]);
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

std::string dirname(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string common_prefix(const std::vector<std::string>& texts) {
  std::string prefix = texts.front();
  for (const auto& t : texts) {
    size_t n = 0;
    while (n < prefix.size() && n < t.size() && prefix[n] == t[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

// Node statements grouped by repeat loop: the root graph, or a nested 'cluster_<id>' subgraph.
struct Cluster {
  std::vector<std::string> statements;
  std::vector<std::string> child_order;
  std::map<std::string, Cluster> children;
};

class DotWriter {
 public:
  DotWriter(const nn::ir::Model& model, const Network& network) : model_(model), network_(network) {
    for (const auto& info : network.repeat_info) times_[info.id] = info.times;
    for (const auto& v : network.variables)
      for (const auto& id : v.repeat_id) ++members_[id];
    for (const auto& f : network.functions)
      for (const auto& id : f.repeat_id) ++members_[id];
  }

  std::string write() {
    compute_scopes();
    compute_need_grad();
    std::map<std::string, int> type_count;
    for (const auto& f : network_.functions) add_function(f, f.type + "-" + std::to_string(++type_count[f.type]));
    const std::vector<std::string> outputs = network_outputs(network_);
    if (outputs.size() > 1) {
      Function sink;
      sink.type = "Sink";
      sink.inputs = outputs;
      add_function(sink, "Sink-1");
    }
    std::string dot = "digraph " + quoted(network_.name) + " {\n";
    dot += "  graph [fontname=\"Helvetica\" fontsize=11 nodesep=0.3 ranksep=0.35];\n";
    dot += "  node [style=filled fontname=\"Helvetica\" fontsize=11];\n";
    dot += "  edge [fontname=\"Helvetica\" fontsize=9 fontcolor=\"gray30\" arrowsize=0.7];\n";
    emit(root_, "  ", dot);
    for (const auto& e : edges_) dot += "  " + e + ";\n";
    return dot + "}\n";
  }

 private:
  bool is_parameter(const std::string& name) const {
    const nn::ir::Variable* v = network_.find_variable(name);
    return v ? v->type == "Parameter" : model_.find_parameter(name) != nullptr;
  }

  // Upstream's fscope: the common prefix of dirname(first parameter) and the other parameter names.
  void compute_scopes() {
    for (const auto& f : network_.functions) {
      std::vector<std::string> names;
      for (const auto& in : f.inputs)
        if (is_parameter(in)) names.push_back(in);
      if (names.empty()) continue;
      std::vector<std::string> prefixes = names;
      prefixes.front() = dirname(names.front());
      const std::string scope = common_prefix(prefixes);
      function_scope_[&f] = scope;
      for (const auto& n : names)
        short_name_[n] = scope.empty() || n.size() <= scope.size() + 1 ? n : n.substr(scope.size() + 1);
    }
  }

  void compute_need_grad() {
    for (const auto& v : network_.variables)
      if (v.type == "Parameter") {
        const nn::ir::Parameter* p = model_.find_parameter(v.name);
        need_grad_[v.name] = p ? p->need_grad : true;
      }
    for (const auto& f : network_.functions) {
      bool any = false;
      for (const auto& in : f.inputs) any = any || need_grad_[in];
      for (const auto& out : f.outputs) need_grad_[out] = need_grad_[out] || any;
    }
  }

  Cluster& cluster_for(std::vector<std::string> repeat_ids) {
    // Outer loops hold more members; nest by that so the file's repeat_id order does not matter.
    std::stable_sort(repeat_ids.begin(), repeat_ids.end(),
                     [&](const std::string& a, const std::string& b) { return members_[a] > members_[b]; });
    Cluster* c = &root_;
    for (const auto& id : repeat_ids) {
      if (!c->children.count(id)) c->child_order.push_back(id);
      c = &c->children[id];
    }
    return *c;
  }

  const std::string& variable_node(const std::string& name) {
    auto it = variable_ids_.find(name);
    if (it != variable_ids_.end()) return it->second;
    const std::string id = "var" + std::to_string(variable_ids_.size() + 1);
    const nn::ir::Variable* v = network_.find_variable(name);
    const bool parameter = is_parameter(name);
    const std::string fill = parameter ? "pink" : "lightgray";
    const std::string label = parameter && short_name_.count(name) ? short_name_[name] : name.empty() ? "h" : name;
    const std::string outline = need_grad_[name] ? "black" : fill;
    cluster_for(v ? v->repeat_id : std::vector<std::string>{})
        .statements.push_back(quoted(id) + " [label=" + quoted(label) +
                              " shape=" + (parameter ? "circle" : "ellipse") + " fillcolor=" + quoted(fill) +
                              " color=" + quoted(outline) + (parameter ? " fontsize=10" : "") + "]");
    return variable_ids_[name] = id;
  }

  std::string edge_label(const std::string& variable) const {
    const nn::ir::Variable* v = network_.find_variable(variable);
    return v ? " [label=" + quoted(" " + shape_label(v->shape)) + "]" : "";
  }

  void add_function(const Function& f, const std::string& id) {
    std::string label = f.type;
    auto scope = function_scope_.find(&f);
    if (scope != function_scope_.end() && !scope->second.empty()) label += "\n" + scope->second;
    // Upstream's white text; black on the light fill where white would not read.
    const std::string color = function_color(f.type);
    cluster_for(f.repeat_id)
        .statements.push_back(quoted(id) + " [label=" + quoted(label) + " shape=box color=" + quoted(color) +
                              " fontcolor=" + (color == "lightblue2" ? "black" : "white") + "]");
    for (size_t i = 0; i < f.inputs.size(); ++i) {
      const std::string& in = f.inputs[i];
      // Loop feedback (RepeatStart's second input, Delay's first) must not pull the loop upside down.
      const bool feedback = (f.type == "RepeatStart" && i == 1) || (f.type == "Delay" && i == 0);
      std::string attrs = produced_.count(in) ? "" : edge_label(in);
      if (feedback) attrs = " [style=dashed constraint=false]";
      edges_.push_back(quoted(variable_node(in)) + " -> " + quoted(id) + attrs);
    }
    for (const auto& out : f.outputs) {
      produced_.insert(out);
      edges_.push_back(quoted(id) + " -> " + quoted(variable_node(out)) + edge_label(out));
    }
  }

  void emit(const Cluster& c, const std::string& indent, std::string& dot) const {
    for (const auto& s : c.statements) dot += indent + s + ";\n";
    for (const auto& id : c.child_order) {
      auto times = times_.find(id);
      const std::string label =
          "repeat " + id + (times != times_.end() ? " \u00d7 " + std::to_string(times->second) : "");
      dot += indent + "subgraph " + quoted("cluster_" + id) + " {\n";
      dot += indent + "  label=" + quoted(label) + "; style=\"rounded,dashed\"; color=\"gray40\"; " +
             "fontcolor=\"gray20\";\n";
      emit(c.children.at(id), indent + "  ", dot);
      dot += indent + "}\n";
    }
  }

  const nn::ir::Model& model_;
  const Network& network_;
  std::map<std::string, int64_t> times_;
  std::map<std::string, int> members_;
  std::map<const Function*, std::string> function_scope_;
  std::map<std::string, std::string> short_name_;
  std::map<std::string, bool> need_grad_;
  std::map<std::string, std::string> variable_ids_;
  std::set<std::string> produced_;
  std::vector<std::string> edges_;
  Cluster root_;
};

}  // namespace

std::vector<std::string> network_outputs(const Network& network) {
  std::set<std::string> consumed;
  for (const auto& f : network.functions)
    for (const auto& in : f.inputs) consumed.insert(in);
  std::vector<std::string> outputs;
  for (const auto& f : network.functions)
    for (const auto& out : f.outputs)
      if (!consumed.count(out) && std::find(outputs.begin(), outputs.end(), out) == outputs.end())
        outputs.push_back(out);
  return outputs;
}

std::string network_to_dot(const nn::ir::Model& model, const Network& network) {
  return DotWriter(model, network).write();
}

}  // namespace nncli
