// Function: one op instance. Public non-virtual setup/forward/backward check, then call the *_impl hooks.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nn/core/context.hpp"
#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn {

class Variable;
struct OpSchema;
using Variables = std::vector<Variable*>;

// A graph a function runs itself (an ONNX Loop's body, an If's branch): the variables it fills before each run
// (nullptr where the graph does not read that input) and the ones it reads after.
struct SubGraph {
  std::vector<std::shared_ptr<Variable>> inputs;
  std::vector<std::shared_ptr<Variable>> outputs;
};

class Function {
 public:
  Function(const OpSchema& schema, const Context& ctx, const Attrs& attrs);
  virtual ~Function() = default;
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;

  const std::string& type() const;
  const OpSchema& schema() const { return schema_; }
  const Attrs& attrs() const { return attrs_; }
  const Context& context() const { return ctx_; }

  // Checks arity and shapes, computes output shapes (outputs are reshaped).
  void setup(const Variables& inputs, const Variables& outputs);
  // Runs the kernel; inputs must have the shapes seen at setup.
  void forward(const Variables& inputs, const Variables& outputs);
  // Writes input grads where propagate_down[i]; accum[i] adds to the existing grad instead of overwriting.
  void backward(const Variables& inputs, const Variables& outputs, const std::vector<bool>& propagate_down,
                const std::vector<bool>& accum);

  // Number of outputs for these input shapes (Split and other variadic-output ops override).
  virtual int num_outputs(const std::vector<Shape>& input_shapes) const;
  // Whether backward reads data of input j when computing grad of input i (for clear_buffer).
  virtual bool grad_depends_input_data(int i, int j) const { return true; }
  // Whether backward reads the data of output o.
  virtual bool grad_depends_output_data(int i, int o) const { return false; }
  // Functions that differ between training and inference (Dropout, BN batch_stat) read this.
  virtual bool is_stochastic() const { return false; }
  // Whether the size of an output depends on the values of the inputs, not only on their shapes (NonZero,
  // Unique, BoolGather, ONNXNonMaxSuppression): forward sets it on every run, and what reads the output is set
  // up again when it changes (forward_all); a declared shape of such an output is not checked.
  virtual bool output_size_follows_data() const { return false; }
  // Whether backward is implemented (some ops are forward-only, as upstream).
  virtual bool has_backward() const { return true; }
  // Whether forward may write output 0 over input `i`'s array: each output element comes from the same
  // element of that input (same shape), which the kernel reads before writing it (element-wise functions).
  // An inference pass that frees intermediates then hands the input's array to the output when nothing else
  // reads the input (forward_all), which saves an allocation and a memory pass.
  virtual bool forward_in_place(int i) const { return false; }
  // Inputs that hold class indices, each with the bound its values must stay under (after setup): lets
  // training check labels where they enter and name the dataset row at fault.
  virtual std::vector<std::pair<int, int64_t>> index_inputs() const { return {}; }
  const std::vector<Shape>& setup_input_shapes() const { return input_shapes_; }
  // How many graphs the function runs itself (Loop: 1, If: 2); they are given once, before setup.
  virtual size_t num_subgraphs() const { return 0; }
  virtual void set_subgraphs(std::vector<SubGraph> graphs);

 protected:
  virtual void setup_impl(const Variables& inputs, const Variables& outputs) = 0;
  virtual void forward_impl(const Variables& inputs, const Variables& outputs) = 0;
  virtual void backward_impl(const Variables& inputs, const Variables& outputs,
                             const std::vector<bool>& propagate_down, const std::vector<bool>& accum) = 0;

  const OpSchema& schema_;
  Context ctx_;
  Attrs attrs_;

 private:
  void check_inputs(const Variables& inputs, const char* stage) const;
  std::vector<Shape> input_shapes_;
};

using FunctionPtr = std::shared_ptr<Function>;

}  // namespace nn
