// Mod2 and BitShift: broadcasting binary arithmetic without a gradient (upstream raises on backward).
#include <cmath>
#include <cstdint>
#include <string>

#include "ops/detail/binary.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Broadcasting binary op without a gradient (upstream raises on backward).
class ForwardOnlyBinary : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  virtual float apply(float a, float b) const = 0;
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = make_broadcast_plan(in[0]->shape(), in[1]->shape(), type());
    out[0]->reshape(plan_.out_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* a = in_data(in[0]);
    const float* b = in_data(in[1]);
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < out[0]->size(); ++i) {
      int64_t ia = i, ib = i;
      if (!plan_.same) broadcast_offsets(plan_, i, ia, ib);
      y[i] = apply(a[ia], b[ib]);
    }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>& prop,
                     const std::vector<bool>&) override {
    NN_CHECK(!prop[0] && !prop[1]) << type() << ": backward is not implemented (as upstream)";
  }
  BroadcastPlan plan_;
};

// Float data: C fmod (sign of the dividend), as upstream does for floating types whatever `fmod` says.
class Mod2 : public ForwardOnlyBinary {
 public:
  using ForwardOnlyBinary::ForwardOnlyBinary;

 protected:
  float apply(float a, float b) const override { return std::fmod(a, b); }
};

// Integer shift of x by `shift` bits (values are rounded to integers; int32 semantics).
class BitShift : public ForwardOnlyBinary {
 public:
  using ForwardOnlyBinary::ForwardOnlyBinary;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const std::string dir = attrs_.get_string("direction");
    NN_CHECK(dir == "LEFT" || dir == "RIGHT") << "BitShift: direction must be LEFT or RIGHT, got '" << dir << "'";
    left_ = dir == "LEFT";
    ForwardOnlyBinary::setup_impl(in, out);
  }
  float apply(float a, float b) const override {
    const int64_t v = std::llround(a), s = std::llround(b);
    if (s < 0 || s >= 32) return 0.f;
    const uint32_t u = uint32_t(int32_t(v));
    return float(int32_t(left_ ? u << s : u >> s));
  }

 private:
  bool left_ = true;
};

}  // namespace

void register_mod2(OpRegistry& r) {
  register_cpu<Mod2>(r, SchemaBuilder("Mod2", "Arithmetic")
                            .doc("elementwise remainder with broadcasting")
                            .in("x0")
                            .in("x1")
                            .arg("fmod", AttrType::kBool, AttrValue(false))
                            .out("y")
                            .build());
}
void register_bit_shift(OpRegistry& r) {
  register_cpu<BitShift>(r, SchemaBuilder("BitShift", "Arithmetic")
                                .doc("elementwise integer bit shift with broadcasting")
                                .in("x")
                                .in("shift")
                                .arg("direction", AttrType::kString, AttrValue(std::string("LEFT")))
                                .out("y")
                                .build());
}

}  // namespace nn::ops
