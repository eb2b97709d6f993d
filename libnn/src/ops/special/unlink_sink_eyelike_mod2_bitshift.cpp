// Unlink, Sink, EyeLike, Mod2, BitShift: small special-use functions (forward-only except Sink's seed).
#include <cmath>
#include <string>

#include "ops/detail/binary.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Forward identity that stops gradients: the backward leaves the input grad untouched.
class Unlink : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(in[0]->shape(), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::copy(x, x + in[0]->size(), y);
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

// Joins several outputs into one (scalar) root; with one_input_grad its backward seeds every input grad
// with 1.
class Sink : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables&, const Variables& out) override { out[0]->reshape({}, true); }
  void forward_impl(const Variables&, const Variables& out) override { out_data(out[0])[0] = 0.f; }
  // Upstream fills the grads of all inputs with 1 regardless of accum; here only where propagate_down.
  void backward_impl(const Variables& in, const Variables&, const std::vector<bool>& prop,
                     const std::vector<bool>&) override {
    if (!attrs_.get_bool("one_input_grad")) return;
    for (size_t i = 0; i < in.size(); ++i)
      if (prop[i]) in[i]->grad()->fill(1.0);
  }
};

// Ones on the k-th diagonal of a 2-D array shaped like x.
class EyeLike : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(in[0]->ndim() == 2) << "EyeLike: input must be 2-D, got " << to_string(in[0]->shape());
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const int64_t rows = in[0]->shape()[0], cols = in[0]->shape()[1], k = attrs_.get_int("k");
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) y[i * cols + j] = j - i == k ? 1.f : 0.f;
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

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

void register_unlink(OpRegistry& r) {
  register_cpu<Unlink>(r, SchemaBuilder("Unlink", "Unsupported, Special Use")
                              .doc("identity that stops gradients")
                              .in("x")
                              .out("y")
                              .build());
}
void register_sink(OpRegistry& r) {
  register_cpu<Sink>(r, SchemaBuilder("Sink", "Unsupported, Special Use")
                            .doc("dummy root joining several outputs")
                            .in_variadic("x")
                            .arg("one_input_grad", AttrType::kBool, AttrValue(true))
                            .out("y")
                            .build());
}
void register_eye_like(OpRegistry& r) {
  register_cpu<EyeLike>(r, SchemaBuilder("EyeLike", "Array Manipulation")
                               .doc("2-D array with ones on the k-th diagonal")
                               .in("x")
                               .arg("k", AttrType::kInt, AttrValue(int64_t(0)))
                               .out("y")
                               .build());
}
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
