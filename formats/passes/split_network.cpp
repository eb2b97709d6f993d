// Network splitting: ranges, sub-models and the summary upstream prints (docs/command_line.md#convert-splitting).
#include "formats/passes/split_network.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "nn/core/error.hpp"

namespace nn::formats {

namespace {

bool parse_index(const std::string& text, int& value) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  value = std::stoi(text);
  return true;
}

std::string shape_text(const ir::Variable& v) {
  std::string s = "(";
  for (size_t d = 0; d < v.shape.size(); ++d) s += (d ? ", " : "") + std::to_string(v.shape[d]);
  return s + ")";
}

// A YAML plain scalar when safe, else single-quoted.
std::string yaml_scalar(const std::string& text) {
  const bool plain = !text.empty() &&
                     std::string("-?:,[]{}#&*!|>'\"%@` ").find(text.front()) == std::string::npos &&
                     text.back() != ' ' && text.back() != ':' && text.find(": ") == std::string::npos &&
                     text.find(" #") == std::string::npos && text.find('\n') == std::string::npos;
  if (plain) return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

const ir::Network& split_target_network(const ir::Model& model) {
  NN_CHECK(!model.executors.empty()) << "splitting needs an executor; the model has none";
  const ir::Network* net = model.find_network(model.executors.front().network_name);
  NN_CHECK(net != nullptr) << "executor '" << model.executors.front().name << "' names missing network '"
                           << model.executors.front().network_name << "'";
  return *net;
}

bool uses_unsupported(const ir::Network& network, const std::set<std::string>& supported) {
  return std::any_of(network.functions.begin(), network.functions.end(),
                     [&](const ir::Function& f) { return !supported.count(f.type); });
}

std::vector<FunctionRange> parse_split_ranges(const std::string& spec, int num_functions) {
  std::vector<FunctionRange> ranges;
  std::stringstream items(spec);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t dash = item.find('-');
    NN_CHECK_CODE(dash != std::string::npos && item.find('-', dash + 1) == std::string::npos, ErrorCode::kUsage)
        << "-S '" << spec << "': range must be \"x0-y0,x1-y1,...\"";
    FunctionRange r{0, num_functions - 1};
    const std::string a = item.substr(0, dash), b = item.substr(dash + 1);
    NN_CHECK_CODE((a.empty() || parse_index(a, r.first)) && (b.empty() || parse_index(b, r.last)),
                  ErrorCode::kUsage)
        << "-S '" << spec << "': range must be \"x0-y0,x1-y1,...\"";
    NN_CHECK_CODE(r.first <= r.last && r.last <= num_functions - 1, ErrorCode::kUsage)
        << "-S '" << spec << "': range must be in 0 to " << num_functions - 1;
    ranges.push_back(r);
  }
  NN_CHECK_CODE(!ranges.empty(), ErrorCode::kUsage) << "-S '" << spec << "': range must be \"x0-y0,x1-y1,...\"";
  return ranges;
}

std::vector<FunctionRange> supported_ranges(const ir::Network& network, const std::set<std::string>& supported) {
  std::vector<FunctionRange> ranges;
  int first = -1;
  const int count = int(network.functions.size());
  for (int k = 0; k <= count; ++k) {
    const bool ok = k < count && supported.count(network.functions[size_t(k)].type);
    if (ok && first < 0) first = k;
    if (!ok && first >= 0) {
      ranges.push_back({first, k - 1});
      first = -1;
    }
  }
  return ranges;
}

ir::Model shrink_model(const ir::Model& model, FunctionRange range) {
  const ir::Network& source = split_target_network(model);
  NN_CHECK(range.first >= 0 && range.first <= range.last && range.last < int(source.functions.size()))
      << "network '" << source.name << "': function range " << range.first << "-" << range.last << " is outside 0-"
      << int(source.functions.size()) - 1;
  ir::Network net = source;
  net.functions.assign(source.functions.begin() + range.first, source.functions.begin() + range.last + 1);
  std::set<std::string> used;
  for (const auto& f : net.functions) {
    used.insert(f.inputs.begin(), f.inputs.end());
    used.insert(f.outputs.begin(), f.outputs.end());
  }
  net.variables.clear();
  for (const auto& v : source.variables)
    if (used.count(v.name)) net.variables.push_back(v);
  auto is_buffer = [&](const std::string& name) {
    const ir::Variable* v = net.find_variable(name);
    return v != nullptr && v->type == "Buffer";
  };

  ir::Model out;
  out.version = model.version;
  out.default_context = model.default_context;
  for (const auto& p : model.parameters)
    if (used.count(p.name)) out.parameters.push_back(p);
  const ir::Executor& exe = model.executors.front();
  ir::Executor e = exe;
  e.data_variable.clear();
  e.output_variable.clear();
  e.generator_variable.clear();
  e.parameter_variable.clear();
  e.loss_variable.clear();
  for (const auto& name : net.functions.front().inputs)
    if (is_buffer(name)) e.data_variable.push_back({name, ""});
  for (const auto& name : net.functions.back().outputs)
    if (is_buffer(name)) e.output_variable.push_back({name, "", ""});
  for (const auto& g : exe.generator_variable)
    if (used.count(g.variable_name)) e.generator_variable.push_back(g);
  for (const auto& p : exe.parameter_variable)
    if (used.count(p.variable_name)) e.parameter_variable.push_back(p);
  out.networks.push_back(std::move(net));
  out.executors.push_back(std::move(e));
  return out;
}

std::string split_output_name(const std::string& output, FunctionRange range) {
  const std::filesystem::path path(output);
  const std::string suffix = "_" + std::to_string(range.first) + "_" + std::to_string(range.last);
  std::filesystem::path renamed = path;
  renamed.replace_filename(path.stem().string() + suffix + path.extension().string());
  return renamed.string();
}

std::string split_summary(const std::vector<std::pair<std::string, ir::Model>>& pieces) {
  std::map<std::string, const ir::Model*> sorted;  // PyYAML sorts mapping keys
  for (const auto& [name, model] : pieces) sorted[name] = &model;
  std::ostringstream o;
  for (const auto& [name, model] : sorted) {
    const ir::Network& net = split_target_network(*model);
    const ir::Executor& exe = model->executors.front();
    o << yaml_scalar(name) << ":\n";
    for (const char* side : {"input", "output"}) {
      std::set<std::string> names;
      if (std::string(side) == "input")
        for (const auto& d : exe.data_variable) names.insert(d.variable_name);
      else
        for (const auto& d : exe.output_variable) names.insert(d.variable_name);
      o << "  " << side << ":" << (names.empty() ? " []" : "") << "\n";
      for (const auto& v : net.variables)  // network variable order, as upstream
        if (names.count(v.name))
          o << "  - name: " << yaml_scalar(v.name) << "\n    shape: " << yaml_scalar(shape_text(v)) << "\n";
    }
  }
  return o.str();
}

}  // namespace nn::formats
