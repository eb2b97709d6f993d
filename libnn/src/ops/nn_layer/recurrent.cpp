// RNN, LSTM and GRU (nnabla's cuDNN-style fused recurrent layers) on the shared
// RecurrentEngine. Inputs: x (T, B, I), h (L, D, B, H), [c (L, D, B, H) for
// LSTM], weight_l0, weight (only when num_layers > 1), bias (optional); outputs
// y (T, B, D*H), h_n [, c_n].
#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/recurrent_core.hpp"

namespace nn::ops {
namespace {

class RecurrentFunction : public Function {
 public:
  RecurrentFunction(const OpSchema& s, const Context& c, const Attrs& a, CellKind kind)
      : Function(s, c, a), kind_(kind), random_(-1) {}
  bool has_backward() const override { return attrs_.get_bool("training"); }
  bool is_stochastic() const override { return attrs_.get_float("dropout") > 0.0; }

 protected:
  bool lstm() const { return kind_ == CellKind::kLstm; }

  void setup_impl(const Variables& in, const Variables& out) override {
    const std::string fn = type();
    const Shape& x = in[0]->shape();
    const Shape& h = in[1]->shape();
    NN_CHECK(x.size() == 3) << fn << ": input x " << to_string(x) << " must be (seq_len, batch, input_size)";
    RecurrentDims d;
    d.kind = kind_;
    d.seq = x[0], d.batch = x[1], d.input = x[2];
    d.layers = attrs_.get_int("num_layers");
    d.dirs = attrs_.get_bool("bidirectional") ? 2 : 1;
    NN_CHECK(d.layers >= 1) << fn << ": num_layers " << d.layers << " must be >= 1";
    NN_CHECK(h.size() == 4 && h[0] == d.layers && h[1] == d.dirs && h[2] == d.batch)
        << fn << ": h " << to_string(h) << " must be (num_layers=" << d.layers << ", num_directions=" << d.dirs
        << ", batch=" << d.batch << ", hidden_size)";
    d.hidden = h[3];
    if (lstm()) {
      NN_CHECK(in.size() >= 4 && in[2]->shape() == h)
          << fn << ": c " << (in.size() > 2 ? to_string(in[2]->shape()) : "missing") << " must match h "
          << to_string(h);
    }
    w0_ = lstm() ? 3 : 2;
    NN_CHECK(int(in.size()) > w0_) << fn << ": weight_l0 is missing";
    const int64_t G = d.gates(), H = d.hidden, D = d.dirs;
    Shape gate_dims = G > 1 || kind_ == CellKind::kGru ? Shape{G, H} : Shape{H};
    Shape w0_want{D};
    w0_want.insert(w0_want.end(), gate_dims.begin(), gate_dims.end());
    w0_want.push_back(d.input + H);
    NN_CHECK(in[size_t(w0_)]->shape() == w0_want)
        << fn << ": weight_l0 " << to_string(in[size_t(w0_)]->shape()) << " must be " << to_string(w0_want);
    const int rest = int(in.size()) - w0_ - 1;
    w_ = b_ = -1;
    if (d.layers > 1) {
      NN_CHECK(rest >= 1) << fn << ": weight must be given when num_layers (" << d.layers << ") > 1";
      w_ = w0_ + 1;
      if (rest >= 2) b_ = w0_ + 2;
      Shape w_want{d.layers - 1, D};
      w_want.insert(w_want.end(), gate_dims.begin(), gate_dims.end());
      w_want.push_back(D * H + H);
      NN_CHECK(in[size_t(w_)]->shape() == w_want)
          << fn << ": weight " << to_string(in[size_t(w_)]->shape()) << " must be " << to_string(w_want);
    } else {
      NN_CHECK(rest <= 1) << fn << ": weight cannot be passed when num_layers == 1";
      if (rest == 1) b_ = w0_ + 1;
    }
    if (b_ >= 0) {
      Shape b_want{d.layers, D};
      if (d.bias_rows() > 1) b_want.push_back(d.bias_rows());
      b_want.push_back(H);
      NN_CHECK(in[size_t(b_)]->shape() == b_want)
          << fn << ": bias " << to_string(in[size_t(b_)]->shape()) << " must be " << to_string(b_want);
    }
    if (kind_ == CellKind::kRnnTanh || kind_ == CellKind::kRnnRelu) {  // RNN only: LSTM and GRU have none
      const std::string nl = attrs_.get_string("nonlinearity");
      NN_CHECK(nl == "tanh" || nl == "relu") << fn << ": nonlinearity '" << nl << "' must be tanh or relu";
      kind_ = d.kind = nl == "relu" ? CellKind::kRnnRelu : CellKind::kRnnTanh;
    }
    const double dropout = attrs_.get_float("dropout");
    NN_CHECK(dropout >= 0.0 && dropout < 1.0) << fn << ": dropout " << dropout << " must be in [0, 1)";
    engine_.setup(d, dropout, attrs_.get_bool("training"));
    out[0]->reshape({d.seq, d.batch, D * H}, true);
    for (size_t o = 1; o < out.size(); ++o) out[o]->reshape(h, true);
  }

  RecurrentParams params(const Variables& in) const {
    RecurrentParams p;
    p.x = in_data(in[0]);
    p.h0 = in_data(in[1]);
    if (lstm()) p.c0 = in_data(in[2]);
    p.w0 = in_data(in[size_t(w0_)]);
    if (w_ >= 0) p.w = in_data(in[size_t(w_)]);
    if (b_ >= 0) p.b = in_data(in[size_t(b_)]);
    return p;
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    engine_.forward(params(in), out_data(out[0]), out_data(out[1]), lstm() ? out_data(out[2]) : nullptr,
                    random_.engine());
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto grad = [&](int i) -> float* {
      return i >= 0 && prop[size_t(i)] ? in_grad_zeroed(in[size_t(i)], accum[size_t(i)]) : nullptr;
    };
    RecurrentGrads g;
    g.dx = grad(0);
    g.dh0 = grad(1);
    if (lstm()) g.dc0 = grad(2);
    g.dw0 = grad(w0_);
    g.dw = grad(w_);
    g.db = grad(b_);
    engine_.backward(params(in), out_grad(out[0]), out_grad(out[1]), lstm() ? out_grad(out[2]) : nullptr, g);
  }

 private:
  CellKind kind_;
  SeededRandom random_;
  RecurrentEngine engine_;
  int w0_ = 2, w_ = -1,
      b_ = -1;  // input indices of weight_l0, weight and bias (-1: absent)
};

class RNN : public RecurrentFunction {
 public:
  RNN(const OpSchema& s, const Context& c, const Attrs& a) : RecurrentFunction(s, c, a, CellKind::kRnnTanh) {}
};
class LSTM : public RecurrentFunction {
 public:
  LSTM(const OpSchema& s, const Context& c, const Attrs& a) : RecurrentFunction(s, c, a, CellKind::kLstm) {}
};
class GRU : public RecurrentFunction {
 public:
  GRU(const OpSchema& s, const Context& c, const Attrs& a) : RecurrentFunction(s, c, a, CellKind::kGru) {}
};

SchemaBuilder& common_tail(SchemaBuilder& s) {
  s.in_param("weight_l0").in_optional("weight", true).in_optional("bias", true);
  return s.arg("dropout", AttrType::kFloat, AttrValue(0.0))
      .arg("bidirectional", AttrType::kBool, AttrValue(false))
      .arg("training", AttrType::kBool, AttrValue(true));
}
}  // namespace

void register_rnn(OpRegistry& r) {
  SchemaBuilder s("RNN", "Neural Network Layer");
  s.doc("multi-layer Elman RNN (tanh or relu), optionally bidirectional").in("x").in("h");
  s.arg("num_layers", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("nonlinearity", AttrType::kString, AttrValue(std::string("tanh")));
  common_tail(s).out("y").out("h_n");
  register_cpu<RNN>(r, s.build());
}

void register_lstm(OpRegistry& r) {
  SchemaBuilder s("LSTM", "Neural Network Layer");
  s.doc("multi-layer LSTM, gates (i, f, g, o), optionally bidirectional").in("x").in("h").in("c");
  s.arg("num_layers", AttrType::kInt, AttrValue(int64_t(1)));
  common_tail(s).out("y").out("h_n").out("c_n");
  register_cpu<LSTM>(r, s.build());
}

void register_gru(OpRegistry& r) {
  SchemaBuilder s("GRU", "Neural Network Layer");
  s.doc(
       "multi-layer GRU, gates (r, z, n), bias (r, z, n_x, n_h), optionally "
       "bidirectional")
      .in("x")
      .in("h");
  s.arg("num_layers", AttrType::kInt, AttrValue(int64_t(1)));
  common_tail(s).out("y").out("h_n");
  register_cpu<GRU>(r, s.build());
}

}  // namespace nn::ops
