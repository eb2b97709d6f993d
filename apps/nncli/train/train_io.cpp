// Output files of `nncli train`: report, result archives and the resume checkpoint.
#include "train/train_io.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "formats/common/atomic_file.hpp"
#include "formats/common/zip_archive.hpp"
#include "formats/nnp/nnp_writer.hpp"
#include "formats/nnp/parameter_h5.hpp"
#include "formats/nnp/solver_state_h5.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "common/py_format.hpp"

namespace nncli {

namespace fs = std::filesystem;
namespace fmt = nn::formats;

namespace {

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }
constexpr const char* kStateMember = "train_state.txt";

std::string exact(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

bool is_text_member(const std::string& name) {
  const std::string ext = fs::path(name).extension().string();
  return ext == ".nntxt" || ext == ".prototxt";
}

std::string state_text(const nn::train::TrainState& s) {
  std::ostringstream os;
  os << "nncli_train_state\t1\n";
  os << "iteration\t" << s.iteration << "\n";
  os << "cost_sum\t" << exact(s.cost_sum) << "\n";
  os << "cost_count\t" << s.cost_count << "\n";
  os << "has_best\t" << (s.has_best ? 1 : 0) << "\n";
  os << "best_error\t" << exact(s.best_error) << "\n";
  for (const auto& [name, pos] : s.train_positions) os << "train_position\t" << pos << "\t" << name << "\n";
  for (const auto& [name, pos] : s.monitor_positions) os << "monitor_position\t" << pos << "\t" << name << "\n";
  for (const auto& [name, scale] : s.loss_scales)
    os << "loss_scale\t" << exact(scale.first) << "\t" << scale.second << "\t" << name << "\n";
  os << "rng\t" << s.rng_state << "\n";
  return os.str();
}

// A whole decimal integer (std::stoll would read "9.2e18" as 9); throws std::invalid_argument otherwise.
int64_t strict_int(const std::string& text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) throw std::invalid_argument(text);
  return v;
}

// A whole double as exact() writes it; throws std::invalid_argument otherwise.
double strict_double(const std::string& text) {
  size_t used = 0;
  const double v = std::stod(text, &used);
  if (used != text.size()) throw std::invalid_argument(text);
  return v;
}

nn::train::TrainState parse_state(const std::string& text, const std::string& path) {
  nn::train::TrainState s;
  std::istringstream is(text);
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(is, line)) {
    ++number;
    if (line.empty()) continue;
    const size_t tab = line.find('\t');
    const std::string key = line.substr(0, tab), rest = tab == std::string::npos ? "" : line.substr(tab + 1);
    auto fail = [&]() {
      NN_FAIL(nn::ErrorCode::kInvalid) << path << ":" << kStateMember << ":" << number << ": bad line";
    };
    try {
      if (key == "nncli_train_state")
        header = rest == "1";
      else if (key == "iteration")
        s.iteration = strict_int(rest);
      else if (key == "cost_sum")
        s.cost_sum = strict_double(rest);
      else if (key == "cost_count")
        s.cost_count = strict_int(rest);
      else if (key == "has_best")
        s.has_best = rest == "1";
      else if (key == "best_error")
        s.best_error = strict_double(rest);
      else if (key == "rng")
        s.rng_state = rest;
      else if (key == "train_position" || key == "monitor_position") {
        const size_t t2 = rest.find('\t');
        if (t2 == std::string::npos) fail();
        auto& target = key == "train_position" ? s.train_positions : s.monitor_positions;
        target[rest.substr(t2 + 1)] = strict_int(rest.substr(0, t2));
      } else if (key == "loss_scale") {
        const size_t t2 = rest.find('\t'), t3 = t2 == std::string::npos ? t2 : rest.find('\t', t2 + 1);
        if (t3 == std::string::npos) fail();
        s.loss_scales[rest.substr(t3 + 1)] = {strict_double(rest.substr(0, t2)),
                                              strict_int(rest.substr(t2 + 1, t3 - t2 - 1))};
      } else {
        fail();
      }
    } catch (const std::logic_error&) {
      fail();
    }
    if (s.iteration < 0 || s.cost_count < 0)
      NN_FAIL(nn::ErrorCode::kInvalid) << path << ":" << kStateMember << ":" << number << ": negative count";
  }
  NN_CHECK(header) << path << ": " << kStateMember << " is not an nncli training state (version 1)";
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
void append_monitoring_report(const std::string& outdir, const nn::train::EpochResult& r) {
  const std::string path = (fs::path(outdir) / "monitoring_report.yml").string();
  std::ofstream f(path, std::ios::app);
  f << r.epoch - 1 << ":\n  cost: " << py_float_repr(r.cost) << "\n";
  for (const auto& [name, value] : r.monitors) f << "  " << name << ": " << py_float_repr(value) << "\n";
  NN_CHECK(f.good()) << "cannot write " << in_quotes(path);
}

std::string epoch_log_line(const nn::train::EpochResult& r) {
  std::string errors;
  for (const auto& [name, value] : r.monitors) {
    char v[64];
    std::snprintf(v, sizeof(v), "%.6f", value);
    errors += (errors.empty() ? " {" : ", ") + name + "=" + v;
  }
  if (!errors.empty()) errors += "}";
  char line[256];
  std::snprintf(line, sizeof(line), "epoch %lld of %lld cost=%.6f ", static_cast<long long>(r.epoch),
                static_cast<long long>(r.max_epoch), r.cost);
  char time[96];
  std::snprintf(time, sizeof(time), " time=(%.1fs /%.1fs) ", r.elapsed_s, r.estimate_s);
  return line + errors + time;
}

ConfigText copy_config_text(const std::string& config, const std::string& outdir) {
  ConfigText out;
  if (fs::path(config).extension() == ".nnp") {
    fmt::ZipReader zip = fmt::ZipReader::open_file(config);
    for (size_t i = 0; i < zip.names().size(); ++i) {
      const std::string& name = zip.names()[i];
      if (!is_text_member(name)) continue;
      fmt::check_member_name(name, config);
      out.member_name = fs::path(name).filename().string();
      out.text = zip.read(i);
      fmt::write_file_atomic((fs::path(outdir) / out.member_name).string(), out.text);
    }
    NN_CHECK(!out.member_name.empty()) << in_quotes(config) << ": the archive holds no .nntxt or .prototxt member";
  } else {
    out.member_name = fs::path(config).filename().string();
    out.text = fmt::read_file(config);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
std::vector<std::pair<std::string, nn::SolverState>> to_solver_states(
    const std::map<std::string, nn::ir::SolverState>& states, const nn::Solver& solver) {
  std::vector<std::pair<std::string, nn::SolverState>> out;
  for (const auto& [name, var] : solver.get_parameters()) {
    auto it = states.find(name);
    if (it == states.end()) continue;
    nn::SolverState s;
    s.t = it->second.t;
    for (const auto& [key, p] : it->second.state_parameter) {
      auto a = nn::NdArray::create(p.shape);
      std::copy(p.data.begin(), p.data.end(), a->cast<float>(true));
      s.pstate[key] = a;
    }
    out.push_back({name, std::move(s)});
  }
  return out;
}

std::map<std::string, nn::ir::SolverState> from_solver_states(const nn::Solver& solver) {
  std::map<std::string, nn::ir::SolverState> out;
  for (const auto& [name, s] : solver.get_states()) {
    nn::ir::SolverState st;
    st.t = s.t;
    for (const auto& [key, a] : s.pstate) st.state_parameter[key] = {a->shape(), a->to_vector()};
    out[name] = std::move(st);
  }
  return out;
}

ResultWriter::ResultWriter(std::string outdir, ConfigText config, std::vector<nn::ir::Optimizer> optimizers)
    : outdir_(std::move(outdir)), config_(std::move(config)), optimizers_(std::move(optimizers)) {}

nn::ir::Model ResultWriter::result_model(const nn::ir::ParameterStore& params, nn::train::Trainer& trainer,
                                         bool with_states) const {
  nn::ir::Model m;
  m.parameters = params.to_ir();
  m.optimizers = optimizers_;
  for (auto& o : m.optimizers) o.solver.states.clear();
  if (with_states)
    for (size_t i = 0; i < trainer.num_optimizers(); ++i)
      for (auto& o : m.optimizers)
        if (o.name == trainer.optimizer(i).name) o.solver.states = from_solver_states(trainer.solver(i));
  return m;
}

void ResultWriter::save_results(bool best, int64_t epoch, const nn::ir::ParameterStore& params,
                                nn::train::Trainer& trainer) {
  const std::string path =
      best ? (fs::path(outdir_) / "results.nnp").string() : current_results_path(outdir_, epoch);
  fmt::NnpSaveOptions so;
  so.parameter_format = fmt::ParameterFormat::kH5;
  so.solver_states = epoch % 5 == 0 ? fmt::SolverStateFormat::kH5 : fmt::SolverStateFormat::kNone;
  so.network_member = config_.member_name;
  so.network_text = config_.text;
  fmt::save_nnp(result_model(params, trainer, epoch % 5 == 0), path, so);
  if (best) return;
  // Older checkpoints go only once the new one is in place.
  std::error_code ec;
  const std::regex current(R"(results_current_(\d+)\.nnp)");
  for (const auto& entry : fs::directory_iterator(outdir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, current) && entry.path().string() != path) fs::remove(entry.path(), ec);
  }
}

void ResultWriter::save_checkpoint(const nn::ir::ParameterStore& params, nn::train::Trainer& trainer) {
  fmt::NnpSaveOptions so;
  so.parameter_format = fmt::ParameterFormat::kH5;
  so.solver_states = fmt::SolverStateFormat::kH5;
  so.network_member = config_.member_name;
  so.network_text = config_.text;
  std::vector<fmt::NnpMember> members = fmt::nnp_members(result_model(params, trainer, true), so);
  members.push_back({kStateMember, state_text(trainer.state())});
  std::vector<fmt::ZipMember> zip;
  for (const auto& m : members) zip.push_back({m.name, m.data});
  fmt::write_zip(checkpoint_path(outdir_), zip);
}

std::string current_results_path(const std::string& outdir, int64_t epoch) {
  return (fs::path(outdir) / ("results_current_" + std::to_string(epoch) + ".nnp")).string();
}

std::string checkpoint_path(const std::string& outdir) {
  return (fs::path(outdir) / "train_checkpoint.nnp").string();
}

std::optional<int64_t> latest_current_epoch(const std::string& outdir) {
  std::optional<int64_t> best;
  std::error_code ec;
  const std::regex current(R"(results_current_(\d+)\.nnp)");
  for (const auto& entry : fs::directory_iterator(outdir, ec)) {
    std::smatch m;
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, m, current)) {
      const int64_t n = std::stoll(m[1].str());
      if (!best || n > *best) best = n;
    }
  }
  return best;
}

std::optional<Checkpoint> read_checkpoint(const std::string& path,
                                          const std::vector<nn::ir::Optimizer>& optimizers) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  return nn::with_context(in_quotes(path), [&] {
    Checkpoint c;
    fmt::ZipReader zip = fmt::ZipReader::open_file(path);
    NN_CHECK(zip.contains(kStateMember) && zip.contains("parameter.h5"))
        << "not a training checkpoint (" << kStateMember << " or parameter.h5 missing)";
    c.state = parse_state(zip.read(kStateMember), path);
    const std::string h5 = zip.read("parameter.h5");
    c.parameters = fmt::nnp::read_h5_parameters(h5, path + ":parameter.h5");
    for (const auto& o : optimizers) {
      const std::string member = fmt::nnp::solver_state_member_name(o);
      if (!zip.contains(member)) continue;
      const std::string bytes = zip.read(member);
      c.solver_states[o.name] = fmt::nnp::read_h5_solver_states(bytes, path + ":" + member);
    }
    return c;
  });
}

}  // namespace nncli
