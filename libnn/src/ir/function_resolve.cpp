// Build-time resolution of file functions (batch dims in shape arguments, inference-mode rewrites).
#include "ir/function_resolve.hpp"

#include <algorithm>

#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::ir {

namespace {

std::vector<int64_t> replace_negative(std::vector<int64_t> dims, int64_t batch_size) {
  for (auto& d : dims)
    if (d < 0) d = batch_size;
  return dims;
}

std::vector<int64_t> resolve_reshape(const std::vector<int64_t>& shape, int64_t input_size, int64_t batch_size) {
  const auto negatives = std::count_if(shape.begin(), shape.end(), [](int64_t d) { return d < 0; });
  NN_CHECK(negatives <= 1) << "shape " << to_string(shape) << " has more than one negative dimension";
  std::vector<int64_t> with_batch = replace_negative(shape, batch_size);
  if (shape_size(with_batch) == input_size) return with_batch;
  if (negatives == 1) return shape;  // a genuine "infer this dim" (ONNX-style -1)
  std::vector<int64_t> prepended{batch_size};
  prepended.insert(prepended.end(), shape.begin(), shape.end());
  NN_CHECK(shape_size(prepended) == input_size)
      << "shape " << to_string(shape) << " does not fit the input's " << input_size
      << " elements, even with the batch dimension " << batch_size << " prepended";
  return prepended;
}

}  // namespace

bool is_training_only_type(const std::string& type) {
  static const char* const kTypes[] = {"Dropout", "RandomFlip", "RandomShift", "RandomErase", "ImageAugmentation"};
  return std::any_of(std::begin(kTypes), std::end(kTypes), [&](const char* t) { return type == t; });
}

FunctionSpec resolve_function(const Function& f, const std::vector<VariablePtr>& inputs, int64_t batch_size,
                              bool training) {
  FunctionSpec spec{f.type, f.attrs};
  if (f.type == "Reshape" && !inputs.empty()) {
    spec.attrs.set("shape", resolve_reshape(f.attrs.get_ints("shape", {}), inputs[0]->size(), batch_size));
  } else if (f.type == "Broadcast" || f.type == "Constant") {
    spec.attrs.set("shape", replace_negative(f.attrs.get_ints("shape", {}), batch_size));
  }
  if (training) return spec;
  // ImageAugmentation that changes the shape cannot be the identity; leave it to its kernel.
  bool keeps_shape = true;
  if (f.type == "ImageAugmentation" && !inputs.empty()) {
    std::vector<int64_t> target = f.attrs.get_ints("shape", {});
    const Shape& in = inputs[0]->shape();
    keeps_shape =
        target.empty() || (target.size() <= in.size() && std::equal(target.rbegin(), target.rend(), in.rbegin()));
  }
  if (is_training_only_type(f.type) && keeps_shape && f.outputs.size() == 1 && !inputs.empty()) {
    spec.type = "Identity";
    spec.attrs = Attrs();
    return spec;
  }
  // Schema lookup (not attrs.has): a file may omit the parameter message and rely on defaults.
  const OpSchema* schema = OpRegistry::instance().find(f.type);
  if (schema && schema->find_arg("batch_stat")) spec.attrs.set("batch_stat", false);
  if (schema && schema->find_arg("training") && (f.type == "RNN" || f.type == "LSTM" || f.type == "GRU"))
    spec.attrs.set("training", false);
  return spec;
}

}  // namespace nn::ir
