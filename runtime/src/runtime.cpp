// nncli::Model over the CLI's session code (import_model, ExecutorRunner): the engine stays private.
#include "nncli/runtime.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <new>
#include <set>
#include <utility>

#include "executor_runner.hpp"
#include "formats/common/file_format.hpp"
#include "formats/onnx/common/onnx_graph_inputs.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nnb_runner.hpp"
#include "shape_template.hpp"

namespace nncli {

namespace {

// An embedding program gets warnings and errors only, unless it asks for more (set_log_level).
const bool g_default_log_level = [] {
  nn::set_log_level(nn::LogLevel::kWarning);
  return true;
}();

std::string single_quoted(const std::string& s) { return "'" + s + "'"; }

// Runs f, turning the engine's exceptions into nncli::Error as main.cpp turns them into exit statuses.
template <class F>
auto translated(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const nn::Error& e) {
    throw Error(int(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    throw Error(int(nn::ErrorCode::kInvalid), "out of memory");
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(int(nn::ErrorCode::kInternal), std::string("internal error: ") + e.what());
  }
}

std::vector<int64_t> dims(const nn::Shape& shape) { return std::vector<int64_t>(shape.begin(), shape.end()); }

}  // namespace

struct Model::Impl {
  std::vector<std::string> files;
  std::string executor, context;  // ModelOptions' (the options themselves hold a map: not kept, see load_runner)
  RunnerOptions runner_options;
  std::vector<std::string> executors;
  // An ONNX model with dynamic axes (its free dims, set only for such a model) is imported again at each new set
  // of input shapes (every shape computation traced at them), or built from its ShapeTemplate when one was
  // learnt; each runner is kept, at most kMaxImports, the least recently made dropped.
  std::optional<FreeDims> free_dims;
  static constexpr size_t kMaxImports = 8;
  // The templates: one per set of atoms at 1 (held there; an import may choose otherwise for a dim of 1, so
  // the others are learnt and used at 2 and over), learnt at the first new shape of that set, or failed (empty).
  struct Learnt {
    ShapeTemplate shapes;
    nn::ir::ParameterStore weights;  // those of every import it was learnt from, held once with the runner's
  };
  std::map<std::vector<bool>, std::optional<Learnt>> templates;
  // Rounds of imports a template may take: each computes in the network the constants the last found to follow
  // the shapes (a Slice of a position table, a broadcast mask...), until none does.
  static constexpr int kMaxRounds = 8;
  std::vector<std::pair<std::vector<nn::Shape>, std::unique_ptr<ExecutorRunner>>> imports;
  ExecutorRunner* runner = nullptr;
  std::vector<Variable> inputs, outputs;
  std::vector<std::vector<float>> values;

  size_t input_index(const std::string& name) const {
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].name == name) return i;
    NN_FAIL(nn::ErrorCode::kInvalid) << "executor " << single_quoted(runner->executor().name) << " has no input "
                                     << single_quoted(name);
  }
  size_t output_index(const std::string& name) const {
    for (size_t i = 0; i < outputs.size(); ++i)
      if (outputs[i].name == name) return i;
    NN_FAIL(nn::ErrorCode::kInvalid) << "executor " << single_quoted(runner->executor().name) << " has no output "
                                     << single_quoted(name);
  }
  // inputs and outputs as the runner is now set up (after a change of input shapes, or a run).
  void refresh_shapes() {
    for (size_t i = 0; i < inputs.size(); ++i) inputs[i].shape = dims(runner->input_shape(i));
    for (size_t i = 0; i < outputs.size(); ++i) outputs[i].shape = dims(runner->output_shape(i));
  }
  std::unique_ptr<ExecutorRunner> load(const NamedShapes& shapes, const RunnerOptions& options) {
    return load_runner(files, executor, context, options, shapes, /*optimize=*/false,
                       executors.empty() ? &executors : nullptr);
  }
  void use(std::vector<nn::Shape> shapes, std::unique_ptr<ExecutorRunner> loaded) {
    if (imports.size() >= kMaxImports) imports.erase(imports.begin());
    runner = loaded.get();
    imports.emplace_back(std::move(shapes), std::move(loaded));
  }
  NamedShapes named(const std::vector<nn::Shape>& shapes) const {
    NamedShapes by_name;
    for (size_t i = 0; i < shapes.size(); ++i) by_name.emplace_back(inputs[i].name, shapes[i]);
    return by_name;
  }
  // Atom values with those at 1 (`held`) left out, and back.
  static std::vector<int64_t> varied(const std::vector<int64_t>& values, const std::vector<bool>& held) {
    std::vector<int64_t> out;
    for (size_t j = 0; j < values.size(); ++j)
      if (!held[j]) out.push_back(values[j]);
    return out;
  }
  static std::vector<int64_t> all_atoms(const std::vector<int64_t>& varied_values, const std::vector<bool>& held) {
    std::vector<int64_t> out;
    for (size_t j = 0, k = 0; j < held.size(); ++j) out.push_back(held[j] ? 1 : varied_values[k++]);
    return out;
  }
  // The ShapeTemplate over the atoms not `held` at 1, from imports around `at` (their values); nullopt when it
  // cannot be learnt (then every new shape of this set is imported).
  std::optional<Learnt> learn_template(const std::vector<int64_t>& at, const std::vector<bool>& held) {
    const std::string model = single_quoted(files.front());
    if (at.size() > ShapeTemplate::kMaxAtoms) {
      NN_LOG_VERBOSE << model << ": " << at.size() << " free dims vary (over " << ShapeTemplate::kMaxAtoms
                     << "): each new input shape is imported";
      return std::nullopt;
    }
    const auto points = ShapeTemplate::sample_points(at);
    std::set<std::string> at_run_time;  // folded constants that follow the shapes, computed in the network
    for (int round = 0;; ++round) {
      std::vector<nn::ir::Model> samples;
      try {
        for (const auto& p : points) {
          ImportOptions import;
          import.onnx_at_run_time = at_run_time;
          for (const auto& [name, shape] : named(free_dims->shapes(all_atoms(p, held))))
            import.input_shapes[name] = shape;
          samples.push_back(nncli::import_model(files, import));
        }
      } catch (const nn::Error& e) {
        NN_LOG_VERBOSE << model << ": no shape template (an import near the shape failed: " << e.what() << ")";
        return std::nullopt;
      }
      nn::ir::ParameterStore weights;
      weights.load(samples[0].parameters);
      std::string why;
      std::vector<std::string> following;
      auto learnt = ShapeTemplate::learn(points, std::move(samples), &why, &following);
      if (learnt) return made(std::move(*learnt), std::move(weights), at.size(), points.size() * (round + 1));
      const size_t before = at_run_time.size();
      at_run_time.insert(following.begin(), following.end());
      if (round + 1 == kMaxRounds || at_run_time.size() == before) {
        NN_LOG_VERBOSE << model << ": no shape template (" << why << "): each new input shape is imported";
        return std::nullopt;
      }
    }
  }
  // The template learnt, its weights held once with the runner's.
  Learnt made(ShapeTemplate learnt, nn::ir::ParameterStore weights, size_t varied, size_t imports) {
    weights.share_equal_from(runner->parameters());
    NN_LOG_VERBOSE << single_quoted(files.front()) << ": new input shapes are built from a shape template ("
                   << varied << " free dims vary, " << learnt.symbolic_count()
                   << " sizes follow them; learnt from " << imports << " imports)";
    return Learnt{std::move(learnt), std::move(weights)};
  }
  // The runner at these shapes from a template; throws when the network cannot be built there.
  std::unique_ptr<ExecutorRunner> from_template(Learnt& learnt, const std::vector<int64_t>& values,
                                                const std::vector<nn::Shape>& shapes) {
    const nn::ir::Model& model = learnt.shapes.at(values);
    RunnerOptions options = runner_options;
    options.parameters = &learnt.weights;
    options.context = select_context(context, model);
    auto built = nn::with_context(single_quoted(files.front()), [&] {
      return std::make_unique<ExecutorRunner>(model, find_executor(model, executor), options);
    });
    for (size_t i = 0; i < shapes.size(); ++i)
      NN_INTERNAL_CHECK(built->input_shape(i) == shapes[i])
          << "shape template: input " << i << " built at " << nn::to_string(built->input_shape(i));
    return built;
  }
  // An ONNX model with dynamic axes: the runner at these shapes, kept, made from the template or imported.
  void reimport_at(const std::vector<nn::Shape>& shapes) {
    for (auto& [seen, kept] : imports)
      if (seen == shapes) {
        runner = kept.get();
        return;
      }
    NN_CHECK(shapes.size() == inputs.size())
        << "the model has " << inputs.size() << " input(s), " << shapes.size() << " shape(s) given";
    const auto values = free_dims->values(shapes);
    if (values && std::count(values->begin(), values->end(), 1) < std::ptrdiff_t(values->size())) {
      std::vector<bool> held;
      for (int64_t v : *values) held.push_back(v == 1);
      const std::vector<int64_t> at = varied(*values, held);
      auto found = templates.find(held);
      if (found == templates.end()) found = templates.emplace(held, learn_template(at, held)).first;
      if (found->second) {
        try {
          return use(shapes, from_template(*found->second, at, shapes));
        } catch (const nn::Error& e) {
          NN_LOG_VERBOSE << single_quoted(files.front()) << ": the shape template does not build at these shapes ("
                         << e.what() << "): imported";
        }
      }
    }
    const NamedShapes by_name = named(shapes);
    RunnerOptions sharing = runner_options;
    sharing.share_parameters = &runner->parameters();  // the weights held once across the imports
    use(shapes, load(by_name, sharing));
  }
  void check_index(size_t index, size_t count, const char* what) const {
    NN_CHECK(index < count) << what << " index " << index << " is out of range (the executor has " << count << " "
                            << what << "s)";
  }
};

Model::Model(const std::vector<std::string>& files, const ModelOptions& options) : impl_(new Impl) {
  translated([&] {
    NN_CHECK_CODE(!files.empty(), nn::ErrorCode::kUsage) << "no model file given";
    Impl& m = *impl_;
    m.files = files;
    m.executor = options.executor;
    m.context = options.context;
    m.runner_options.batch_size = options.batch_size;
    m.runner_options.init_missing = options.init_missing;
    m.runner_options.seed = options.seed;
    if (nn::formats::file_extension(files.front()) == "onnx") {
      const auto graph_inputs = nn::formats::onnx::read_graph_inputs(files.front());
      if (graph_inputs && nn::formats::onnx::has_free_dims(*graph_inputs)) m.free_dims.emplace(*graph_inputs);
    }
    NamedShapes shapes;
    for (const auto& [name, dims] : options.input_shapes)
      shapes.emplace_back(name, nn::Shape(dims.begin(), dims.end()));
    auto loaded = m.load(shapes, m.runner_options);
    std::vector<nn::Shape> built;
    for (size_t i = 0; i < loaded->num_inputs(); ++i) built.push_back(loaded->input_shape(i));
    m.use(std::move(built), std::move(loaded));
    for (size_t i = 0; i < m.runner->num_inputs(); ++i)
      m.inputs.push_back({m.runner->input_name(i), dims(m.runner->input_shape(i))});
    for (size_t i = 0; i < m.runner->num_outputs(); ++i)
      m.outputs.push_back(
          {m.runner->executor().output_variable[i].variable_name, dims(m.runner->output_shape(i))});
    m.values.resize(m.outputs.size());
  });
}

Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

const std::vector<std::string>& Model::executors() const { return impl_->executors; }
const std::string& Model::executor() const { return impl_->runner->executor().name; }
int64_t Model::batch_size() const { return impl_->runner->batch_size(); }
const std::vector<Variable>& Model::inputs() const { return impl_->inputs; }
const std::vector<Variable>& Model::outputs() const { return impl_->outputs; }

void Model::set_input(size_t index, const float* data, size_t count) {
  translated([&] {
    impl_->check_index(index, impl_->inputs.size(), "input");
    const Variable& v = impl_->inputs[index];
    NN_CHECK(int64_t(count) == v.size()) << "input " << single_quoted(v.name) << " of shape "
                                         << nn::to_string(nn::Shape(v.shape.begin(), v.shape.end())) << " needs "
                                         << v.size() << " values, but " << count << " were given";
    NN_CHECK(data != nullptr || count == 0) << "input " << single_quoted(v.name) << ": no data";
    impl_->runner->set_input(index, data, count);
  });
}

void Model::set_input(const std::string& name, const float* data, size_t count) {
  set_input(translated([&] { return impl_->input_index(name); }), data, count);
}

void Model::set_input_shapes(const std::vector<std::vector<int64_t>>& shapes) {
  translated([&] {
    std::vector<nn::Shape> given;
    for (const auto& s : shapes) given.emplace_back(s.begin(), s.end());
    if (impl_->free_dims)
      impl_->reimport_at(given);
    else
      impl_->runner->set_input_shapes(given);
    impl_->refresh_shapes();
  });
}

void Model::run() {
  translated([&] {
    std::vector<ExecutorOutput> outputs = impl_->runner->run();
    for (size_t i = 0; i < outputs.size(); ++i) impl_->values[i] = std::move(outputs[i].values);
    impl_->refresh_shapes();
  });
}

const std::vector<float>& Model::output(size_t index) const {
  translated([&] { impl_->check_index(index, impl_->outputs.size(), "output"); });
  return impl_->values[index];
}

const std::vector<float>& Model::output(const std::string& name) const {
  return impl_->values[translated([&] { return impl_->output_index(name); })];
}

void set_log_level(LogLevel level) { nn::set_log_level(nn::LogLevel(int(level))); }

void set_log_sink(std::function<void(LogLevel, const std::string&)> sink) {
  if (!sink) return nn::set_log_sink(nullptr);
  nn::set_log_sink(
      [sink = std::move(sink)](nn::LogLevel level, const std::string& text) { sink(LogLevel(int(level)), text); });
}

std::string version() { return NNCLI_VERSION; }

}  // namespace nncli
