// `nncli dump`: nnabla_cli's network summary (optimizers, monitors, executors, -F/-V/-n/-v), plus --stats and
// JSON.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "command.hpp"
#include "common/command_options.hpp"
#include "common/input_file_check.hpp"
#include "dump/dump_proto.hpp"
#include "dump/dump_stats.hpp"
#include "model_session.hpp"
#include "nnb_runner.hpp"
#include "nn/core/error.hpp"
#include "nn/core/printable.hpp"
#include "common/py_format.hpp"
#include "common/json_text.hpp"

namespace nncli {

struct DumpOptions {
  bool verbose = false;
  bool functions = false;
  bool variables = false;
  int dump_limit = -1;
  std::string variable_name;
  ModelImportArgs import;
  bool stats = false;
  int64_t batch_size = 1;
  std::string format = "text";
  std::vector<std::string> files;
};

std::shared_ptr<DumpOptions> setup_dump(CLI::App& command) {
  auto o = std::make_shared<DumpOptions>();
  command.add_flag("-v,--dump-verbose", o->verbose, "Print every field of the model (NNP:field: value)");
  command.add_flag("-F,--dump-functions", o->functions, "List the functions of each network");
  command.add_flag("-V,--dump-variables", o->variables, "With -F: also the inputs and outputs of each function");
  command.add_option("--dump-limit", o->dump_limit, "-v: items shown per repeated field (Python slice end)")
      ->capture_default_str();
  command.add_option("-n,--dump-variable-name", o->variable_name, "Print only this variable's shape");
  add_model_import_options(command, o->import, "Input format (NNP)", "Keep only executor N and its network");
  add_input_shape_option(command, o->import.input_shapes);
  command.add_flag("--stats", o->stats, "Per-function MACs/FLOPs, parameter counts and activation bytes");
  add_batch_size_option(command, o->batch_size, "Batch size for --stats")->capture_default_str();
  add_text_json_format_option(command, o->format, "text or json");
  command.add_option("files", o->files, "Model files (.nnp, .nntxt, .h5, .protobuf)")
      ->required()
      ->check(existing_input());
  return o;
}

namespace {

using nn::ir::Network;

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string center(const std::string& s, size_t width) {
  if (s.size() >= width) return s;
  const size_t left = (width - s.size()) / 2;
  return std::string(left, ' ') + s + std::string(width - s.size() - left, ' ');
}

std::string shape_text(const Network& net, const std::string& name) {
  const nn::ir::Variable* v = net.find_variable(name);
  return v ? py_int_list(v->shape) : " - ";
}

// Upstream aborts when a parameter has no data (unless the files hold none: the importer generates them).
void check_parameters(const nn::ir::Model& model) {
  if (model.parameters.empty()) return;
  std::set<std::string> present;
  for (const auto& p : model.parameters) present.insert(p.name);
  for (const auto& net : model.networks)
    for (const auto& v : net.variables)
      NN_CHECK(v.type != "Parameter" || present.count(v.name))
          << "Parameter [" << v.name << "] in network[" << net.name
          << "] not found. Make sure that you do not forget to read parameter file.";
}

class TextDump {
 public:
  TextDump(const nn::ir::Model& model, const DumpOptions& opt) : model_(model), opt_(opt) {}

  std::string render() {
    for (size_t i = 0; i < model_.optimizers.size(); ++i) {
      const auto& o = model_.optimizers[i];
      section("  Optimizer[" + std::to_string(i) + "]: ", o.name, o.network_name,
              [&](const Network& n, const std::string& p) {
                args(n, p, " (In) Data     ", o.data_variable);
                args(n, p, " (In) Generator", o.generator_variable);
                args(n, p, " (Out)Loss     ", o.loss_variable);
              });
    }
    for (size_t i = 0; i < model_.monitors.size(); ++i) {
      const auto& m = model_.monitors[i];
      section("  Monitor  [" + std::to_string(i) + "]: ", m.name, m.network_name,
              [&](const Network& n, const std::string& p) {
                args(n, p, " (In) Data     ", m.data_variable);
                args(n, p, " (In) Generator", m.generator_variable);
                args(n, p, " (Out)Monitor  ", m.monitor_variable);
              });
    }
    for (size_t i = 0; i < model_.executors.size(); ++i) {
      const auto& e = model_.executors[i];
      section("  Executor [" + std::to_string(i) + "]: ", e.name, e.network_name,
              [&](const Network& n, const std::string& p) {
                args(n, p, " (In) Data     ", e.data_variable);
                args(n, p, " (In) Generator", e.generator_variable);
                args(n, p, " (Out)Loss     ", e.loss_variable);
                args(n, p, " (Out)Output   ", e.output_variable);
              });
    }
    return out_;
  }

 private:
  template <class F>
  void section(const std::string& prefix, const std::string& name, const std::string& network, F&& print_args) {
    const Network* net = model_.find_network(network);
    NN_CHECK(net != nullptr) << "'" << name << "' uses network '" << network
                             << "', which the model does not define";
    out_ += prefix + name + "\n";
    print_args(*net, prefix);
    body(*net, prefix);
  }

  template <class Vars>
  void args(const Network& net, const std::string& prefix, const std::string& label, const Vars& vars) {
    for (size_t i = 0; i < vars.size(); ++i)
      out_ += prefix + label + " variable[" + std::to_string(i) + "]: Name:" + pad(vars[i].variable_name, 30) +
              " Shape:" + shape_text(net, vars[i].variable_name) + "\n";
  }

  void body(const Network& net, const std::string& prefix) {
    if (!opt_.variable_name.empty()) {
      out_ += net.find_variable(opt_.variable_name)
                  ? "Variable Name: " + pad(opt_.variable_name, 20) +
                        " Shape: " + shape_text(net, opt_.variable_name) + "\n"
                  : "DUMP ERROR: variable " + opt_.variable_name + " not found.\n";
      return;
    }
    if (!opt_.functions) return;
    for (size_t i = 0; i < net.functions.size(); ++i) {
      const auto& f = net.functions[i];
      const std::string fp = prefix + "  Function[" + center(std::to_string(i), 5) + "]: ";
      out_ += fp + "Type: " + pad(f.type, 20) + " Name: " + f.name + "\n";
      if (!opt_.variables) continue;
      for (size_t j = 0; j < f.inputs.size(); ++j)
        out_ += fp + "  Input" + std::to_string(j) + ": Name: " + pad(f.inputs[j], 20) +
                " Shape: " + shape_text(net, f.inputs[j]) + "\n";
      for (size_t j = 0; j < f.outputs.size(); ++j)
        out_ += fp + " Output" + std::to_string(j) + ": Name: " + pad(f.outputs[j], 20) +
                " Shape: " + shape_text(net, f.outputs[j]) + "\n";
    }
  }

  const nn::ir::Model& model_;
  const DumpOptions& opt_;
  std::string out_;
};

std::string stats_text(const NetworkStats& s) {
  char line[512];
  std::string out = "Network '" + s.name + "' (batch size " + std::to_string(s.batch_size) + ")\n";
  std::snprintf(line, sizeof(line), "  %5s %-24s %-30s %14s %14s %12s %14s\n", "Index", "Type", "Name", "MACs",
                "FLOPs", "Params", "Output bytes");
  out += line;
  for (size_t i = 0; i < s.functions.size(); ++i) {
    const auto& f = s.functions[i];
    std::snprintf(line, sizeof(line), "  %5zu %-24s %-30s %14lld %14lld %12lld %14lld\n", i, f.type.c_str(),
                  f.name.c_str(), (long long)f.macs, (long long)f.flops, (long long)f.parameters,
                  (long long)f.output_bytes);
    out += line;
  }
  std::snprintf(line, sizeof(line), "  Total: MACs %lld, FLOPs %lld, parameters %lld, activation bytes %lld\n",
                (long long)s.macs, (long long)s.flops, (long long)s.parameters, (long long)s.activation_bytes);
  return out + line;
}

nlohmann::ordered_json stats_json(const NetworkStats& s) {
  nlohmann::ordered_json fs = nlohmann::ordered_json::array();
  for (const auto& f : s.functions)
    fs.push_back({{"type", f.type},
                  {"name", f.name},
                  {"macs", f.macs},
                  {"flops", f.flops},
                  {"parameters", f.parameters},
                  {"output_bytes", f.output_bytes}});
  return {{"network", s.name},
          {"batch_size", s.batch_size},
          {"functions", fs},
          {"totals",
           {{"macs", s.macs},
            {"flops", s.flops},
            {"parameters", s.parameters},
            {"activation_bytes", s.activation_bytes}}}};
}

template <class Vars>
nlohmann::ordered_json vars_json(const nn::ir::Model& model, const std::string& network, const Vars& vars) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const Network* net = model.find_network(network);
  for (const auto& v : vars) {
    const nn::ir::Variable* var = net ? net->find_variable(v.variable_name) : nullptr;
    out.push_back({{"name", v.variable_name},
                   {"shape", var ? nlohmann::ordered_json(var->shape) : nlohmann::ordered_json()}});
  }
  return out;
}

nlohmann::ordered_json model_json(const nn::ir::Model& model) {
  nlohmann::ordered_json j;
  j["optimizers"] = j["monitors"] = j["executors"] = j["networks"] = nlohmann::ordered_json::array();
  for (const auto& o : model.optimizers)
    j["optimizers"].push_back({{"name", o.name},
                               {"network", o.network_name},
                               {"data", vars_json(model, o.network_name, o.data_variable)},
                               {"generator", vars_json(model, o.network_name, o.generator_variable)},
                               {"loss", vars_json(model, o.network_name, o.loss_variable)}});
  for (const auto& m : model.monitors)
    j["monitors"].push_back({{"name", m.name},
                             {"network", m.network_name},
                             {"data", vars_json(model, m.network_name, m.data_variable)},
                             {"generator", vars_json(model, m.network_name, m.generator_variable)},
                             {"monitor", vars_json(model, m.network_name, m.monitor_variable)}});
  for (const auto& e : model.executors)
    j["executors"].push_back({{"name", e.name},
                              {"network", e.network_name},
                              {"data", vars_json(model, e.network_name, e.data_variable)},
                              {"generator", vars_json(model, e.network_name, e.generator_variable)},
                              {"loss", vars_json(model, e.network_name, e.loss_variable)},
                              {"output", vars_json(model, e.network_name, e.output_variable)}});
  for (const auto& n : model.networks) {
    nlohmann::ordered_json vars = nlohmann::ordered_json::array(), funcs = nlohmann::ordered_json::array();
    for (const auto& v : n.variables) vars.push_back({{"name", v.name}, {"type", v.type}, {"shape", v.shape}});
    for (const auto& f : n.functions)
      funcs.push_back({{"type", f.type}, {"name", f.name}, {"inputs", f.inputs}, {"outputs", f.outputs}});
    j["networks"].push_back(
        {{"name", n.name}, {"batch_size", n.batch_size}, {"variables", vars}, {"functions", funcs}});
  }
  return j;
}

}  // namespace

int run_dump(const DumpOptions& opt) {
  if (opt.files.size() == 1 && is_nnb_file(opt.files[0])) {  // nnablart's dump of an NNB
    std::fputs(nn::printable(dump_nnb_file(opt.files[0]), true).c_str(), stdout);
    return 0;
  }
  nn::ir::Model model = import_model(opt.files, opt.import.import_options());
  if (opt.verbose) {
    std::fputs(nn::printable(dump_proto_fields(model, "NNP", opt.dump_limit), true).c_str(), stdout);
    return 0;
  }
  check_parameters(model);
  std::vector<NetworkStats> stats;
  if (opt.stats)
    for (const auto& n : model.networks) stats.push_back(network_stats(n, opt.batch_size));
  if (opt.format == "json") {
    nlohmann::ordered_json j = model_json(model);
    if (opt.stats) {
      j["stats"] = nlohmann::ordered_json::array();
      for (const auto& s : stats) j["stats"].push_back(stats_json(s));
    }
    std::printf("%s\n", json_text(j, 2).c_str());
    return 0;
  }
  std::string text = TextDump(model, opt).render();
  for (const auto& s : stats) text += stats_text(s);
  std::fputs(nn::printable(text, true).c_str(), stdout);  // names from the file, escaped for the terminal
  return 0;
}

}  // namespace nncli
