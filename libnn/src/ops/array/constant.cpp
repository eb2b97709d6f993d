// Constant: an inputless array of `shape` filled with val.
#include <algorithm>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// y of `shape` filled with val; no inputs.
class Constant : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables&, const Variables& out) override {
    Shape shape = attrs_.get_ints("shape");
    for (int64_t d : shape) NN_CHECK(d >= 0) << "Constant: negative dimension in shape " << to_string(shape);
    out[0]->reshape(shape, true);
  }
  void forward_impl(const Variables&, const Variables& out) override {
    std::fill_n(out_data(out[0]), out[0]->size(), float(attrs_.get_float("val")));
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

}  // namespace

void register_constant(OpRegistry& r) {
  register_cpu<Constant>(r, SchemaBuilder("Constant", "Logical")
                                .doc("array of `shape` filled with val")
                                .arg("val", AttrType::kFloat, AttrValue(0.0))
                                .arg("shape", AttrType::kShape, AttrValue(std::vector<int64_t>{}))
                                .out("y")
                                .build());
}
}  // namespace nn::ops
