// nncli's C++ inference API: load a model, set its inputs from memory, run one executor, read outputs.
//
//   nncli::Model model("mlp.nnp", {.batch_size = 2});
//   model.set_input(0, pixels.data(), pixels.size());
//   model.run();
//   const std::vector<float>& y = model.output(0);
//
// Models: an .nnp, an .nntxt/.prototxt (with its parameter files: .h5, .protobuf or .nnp after it),
// an .onnx or an .nnb. The first file decides the format, as `nncli infer` does.
//
// Errors: every failure throws nncli::Error, whose what() is the one line `nncli infer` prints after
// "nncli: error: " (for instance "'m.nnp': not a valid zip archive") and whose code() is the exit
// status the CLI would return (1 bad input or I/O, 2 usage, 3 unsupported, 5 internal).
//
// Threads: a Model is not thread-safe. Use one Model per thread (separate Models, even of the same
// file, run concurrently), or guard a shared Model with a mutex. Loading is safe from any thread.
// The engine's own worker threads (OpenMP) are shared by all Models of the process.
//
// Stability: this header is the whole public interface of libnncli; it uses only the standard library,
// and the engine's types stay private to the library.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef NNCLI_API
#define NNCLI_API __attribute__((visibility("default")))  // libnncli exports only what is marked so
#endif

namespace nncli {

// A failure, carrying the CLI's one-line message and exit status.
class NNCLI_API Error : public std::runtime_error {
 public:
  Error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

// A data (input) or output variable of the executor, with its shape for the chosen batch size.
struct Variable {
  std::string name;
  std::vector<int64_t> shape;
  int64_t size() const {  // number of elements
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

struct ModelOptions {
  std::string executor;       // executor name; "" = the model's first executor
  int64_t batch_size = -1;    // <= 0: the batch size written in the network
  std::string context;        // "cpu", "cuda", "cudnn[:half][:DEVICE]"; "" = the model's default if
                              // this build can run it, else cpu
  bool init_missing = false;  // create parameters absent from the files from their initializers
  uint32_t seed = 0;          // for init_missing and the executor's generator variables
  // Shapes of named inputs, as `nncli infer --input-shape`: an ONNX model exported with dynamic axes is imported
  // at them (one whose free dims follow only the batch needs none), other models run at them.
  std::map<std::string, std::vector<int64_t>> input_shapes;
};

class NNCLI_API Model {
 public:
  // Loads files (model first, then parameter files) and builds the executor. Throws nncli::Error.
  explicit Model(const std::vector<std::string>& files, const ModelOptions& options = {});
  explicit Model(const std::string& file, const ModelOptions& options = {})
      : Model(std::vector<std::string>{file}, options) {}
  ~Model();
  Model(Model&&) noexcept;  // a moved-from Model may only be destroyed or assigned to
  Model& operator=(Model&&) noexcept;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // Names of every executor in the loaded files (the one built is executor()).
  const std::vector<std::string>& executors() const;
  const std::string& executor() const;
  int64_t batch_size() const;
  const std::vector<Variable>& inputs() const;
  const std::vector<Variable>& outputs() const;

  // Copies count float32 values (row-major, inputs()[i].size() of them) into input i or the input
  // named name. An index out of range, an unknown name or a wrong count throws. Inputs keep their
  // values across run() calls.
  void set_input(size_t index, const float* data, size_t count);
  void set_input(const std::string& name, const float* data, size_t count);

  // Runs from now on take inputs of these shapes, one per input, each with as many axes as inputs()[i]
  // (another batch size, sequence length or image size): shapes are inferred again through the network and
  // inputs() and outputs() give the new ones (an ONNX model with dynamic axes is imported again at them, so
  // its shape computations are traced at the real shapes). Each set of shapes keeps its own setup, so
  // returning to shapes used before costs no setup. Throws when the network cannot take them, naming the
  // function that refuses.
  // Set the inputs' values after a change of shapes.
  void set_input_shapes(const std::vector<std::vector<int64_t>>& shapes);

  // Runs the executor (num_evaluations times, combined as the executor says, like `nncli infer`).
  void run();

  // The values of output i (or named name) from the last run(); empty before the first run(). An output whose
  // size follows the data (NonZero, NonMaxSuppression, Unique) has its shape in outputs() after each run().
  const std::vector<float>& output(size_t index) const;
  const std::vector<float>& output(const std::string& name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Log lines of the engine ("Importing m.nnp", warnings). By default only warnings and errors are
// written, to stderr as "nncli: warning: ...". The level and sink are process-wide.
enum class LogLevel : int { kError = 0, kWarning = 1, kInfo = 2, kVerbose = 3, kDebug = 4 };
NNCLI_API void set_log_level(LogLevel level);
// sink(level, line) receives every line at or below the level; nullptr restores stderr.
NNCLI_API void set_log_sink(std::function<void(LogLevel, const std::string&)> sink);

// The library's version, "MAJOR.MINOR.PATCH".
NNCLI_API std::string version();

}  // namespace nncli
