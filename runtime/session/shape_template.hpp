// An ONNX model's import as a function of its free input dims, learnt from imports at a few shapes: a new input
// shape then costs building the network, not importing the file again.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/common/onnx_graph_inputs.hpp"
#include "nn/ir/model.hpp"

namespace nncli {

// The free dims of a model's inputs as atoms: the dims that share a dim_param are one atom, each unnamed free
// dim is one of its own.
class FreeDims {
 public:
  explicit FreeDims(const std::vector<nn::formats::onnx::GraphInput>& inputs);
  size_t count() const { return count_; }
  // The atoms' values at `shapes`; nullopt when a rank differs from the input's, a fixed dim is given another
  // value, an atom takes two values, or one is 0 (empty inputs are imported).
  std::optional<std::vector<int64_t>> values(const std::vector<nn::Shape>& shapes) const;
  // The inputs' shapes with the atoms at `values`.
  std::vector<nn::Shape> shapes(const std::vector<int64_t>& values) const;

 private:
  std::vector<nn::Shape> fixed_;        // each input's dims, -1 where free
  std::vector<std::vector<int>> atom_;  // each input's atom per axis, -1 for a fixed dim
  size_t count_ = 0;
};

class ShapeTemplate {
 public:
  // At most this many atoms: learning takes 2^count + 1 imports.
  static constexpr size_t kMaxAtoms = 3;
  // Where learn() needs imports, around atom values `at`: the 2^D corners of {v, v + 1} per atom, then a check
  // point (v + 3 + 2j for atom j) that the fit must predict.
  static std::vector<std::vector<int64_t>> sample_points(const std::vector<int64_t>& at);
  // From the imports at sample_points (in their order). nullopt, with `why`, when the imports differ in more than
  // integers (functions, names, float arguments, parameter values), or an integer (a variable's dim, a Reshape's
  // shape, a Slice's stop...) is not a multilinear function of the atoms with integer coefficients, or the
  // check import holds another value than the fit predicts. `following`, when given, receives the parameters
  // that differ (folded constants an import may compute in the network instead: onnx::import_model's
  // at_run_time).
  static std::optional<ShapeTemplate> learn(const std::vector<std::vector<int64_t>>& points,
                                            std::vector<nn::ir::Model> imports, std::string* why,
                                            std::vector<std::string>* following = nullptr);
  // The model at atom values `values`: its parameters are listed without their data (they are the imports'
  // own, the same at every shape). Valid until the next call.
  const nn::ir::Model& at(const std::vector<int64_t>& values);
  // How many integers follow the atoms.
  size_t symbolic_count() const { return slots_.size(); }

 private:
  struct Slot {
    size_t index = 0;                   // the integer's place in the model's walk (shape_template.cpp)
    std::vector<int64_t> coefficients;  // of each product of shifted atoms (v - base), by subset mask
  };
  std::unique_ptr<nn::ir::Model> skeleton_;  // the first import, integers as there, parameters without data
  std::vector<int64_t*> places_;             // the skeleton's integers that follow the atoms, as slots_
  std::vector<int64_t> base_;
  std::vector<Slot> slots_;
};

}  // namespace nncli
