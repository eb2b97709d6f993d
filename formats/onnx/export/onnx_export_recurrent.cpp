// ONNX export rules for nnabla's one-layer RNN/LSTM/GRU: W/R/B unpacked from the fused parameters, gates
// reordered.
#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

const ir::Parameter& fused(Emitter& e, const ir::Function& f, size_t i, const char* what) {
  const ir::Parameter* p = i < f.inputs.size() ? e.parameter(f.inputs[i]) : nullptr;
  NN_CHECK(p != nullptr) << what << " must be a parameter for ONNX export";
  return *p;
}

void emit_recurrent(Emitter& e, const ir::Function& f) {
  const bool lstm = f.type == "LSTM", gru = f.type == "GRU";
  NN_CHECK(f.attrs.get_int("num_layers", 1) == 1) << "num_layers > 1 is not supported for ONNX export";
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);               // (T, B, I)
  const Shape& hs = e.shape(f.inputs.at(1));  // (1, D, B, H)
  NN_CHECK(xs.size() == 3 && hs.size() == 4) << "x " << xs << " and h " << hs << " must be 3-D and 4-D";
  const int64_t T = xs[0], B = xs[1], I = xs[2], D = hs[1], H = hs[3];
  const int64_t G = lstm ? 4 : gru ? 3 : 1;
  // ONNX gate block k reads nnabla gate order[k]: LSTM (i, o, f, c) <- (i, f, g, o); GRU (z, r, h) <- (r, z, n).
  const std::vector<int64_t> order = lstm  ? std::vector<int64_t>{0, 3, 1, 2}
                                     : gru ? std::vector<int64_t>{1, 0, 2}
                                           : std::vector<int64_t>{0};
  const size_t w_index = lstm ? 3 : 2;
  const ir::Parameter& w = fused(e, f, w_index, "weight_l0");
  NN_CHECK(int64_t(w.data.size()) == D * G * H * (I + H)) << "weight_l0 has " << w.data.size() << " values";
  std::vector<float> W(size_t(D * G * H * I)), R(size_t(D * G * H * H));
  for (int64_t d = 0; d < D; ++d)
    for (int64_t k = 0; k < G; ++k)
      for (int64_t r = 0; r < H; ++r) {
        const float* row = &w.data[size_t(((d * G + order[size_t(k)]) * H + r) * (I + H))];
        std::copy(row, row + I, &W[size_t(((d * G + k) * H + r) * I)]);
        std::copy(row + I, row + I + H, &R[size_t(((d * G + k) * H + r) * H)]);
      }
  std::vector<std::string> inputs{x, e.float_initializer("rnn_W", W, {D, G * H, I}),
                                  e.float_initializer("rnn_R", R, {D, G * H, H})};
  std::vector<float> bias(size_t(D * 2 * G * H), 0.0f);
  if (f.inputs.size() > w_index + 1) {
    const ir::Parameter& b = fused(e, f, w_index + 1, "bias");
    const int64_t rows = gru ? 4 : G;
    NN_CHECK(int64_t(b.data.size()) == D * rows * H) << "bias has " << b.data.size() << " values";
    for (int64_t d = 0; d < D; ++d) {
      for (int64_t k = 0; k < G; ++k)
        for (int64_t j = 0; j < H; ++j)
          bias[size_t((d * 2 * G + k) * H + j)] = b.data[size_t((d * rows + order[size_t(k)]) * H + j)];
      if (gru)  // n_h goes to the recurrent bias of the h gate
        for (int64_t j = 0; j < H; ++j)
          bias[size_t((d * 2 * G + G + 2) * H + j)] = b.data[size_t((d * 4 + 3) * H + j)];
    }
  }
  inputs.push_back(e.float_initializer("rnn_B", bias, {D, 2 * G * H}));
  inputs.push_back("");  // sequence_lens
  inputs.push_back(e.reshape(f.inputs[1], {D, B, H}));
  if (lstm) inputs.push_back(e.reshape(f.inputs[2], {D, B, H}));
  const std::string y4 = e.fresh(f.outputs.at(0), "Y");
  std::vector<std::string> outputs{y4};
  std::vector<std::string> states;
  for (size_t k = 1; k < f.outputs.size(); ++k) {
    states.push_back(e.fresh(f.outputs[k], "state"));
    outputs.push_back(states.back());
  }
  onnx::NodeProto* n = e.node(f.type, inputs, outputs, e.node_name(f.type));
  set_attr(n, "hidden_size", H);
  if (D == 2) set_attr(n, "direction", std::string("bidirectional"));
  if (gru) set_attr(n, "linear_before_reset", int64_t(1));
  if (f.type == "RNN" && f.attrs.get_string("nonlinearity", "tanh") == "relu") {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name("activations");
    a->set_type(onnx::AttributeProto::STRINGS);
    for (int64_t d = 0; d < D; ++d) a->add_strings("Relu");
  }
  // Y (T, D, B, H) -> (T, B, D*H); states (D, B, H) -> (1, D, B, H).
  const std::string yt = e.fresh(f.outputs[0], "transpose");
  set_attr(e.node("Transpose", {y4}, {yt}, e.node_name("Transpose")), "perm", std::vector<int64_t>{0, 2, 1, 3});
  e.reshape(yt, {T, B, D * H}, f.outputs[0]);
  for (size_t k = 1; k < f.outputs.size(); ++k) e.reshape(states[k - 1], {1, D, B, H}, f.outputs[k]);
}

}  // namespace

void add_recurrent_rules(std::vector<Rule>& rules) {
  for (const char* t : {"RNN", "LSTM", "GRU"}) rules.push_back({t, 7, emit_recurrent});
}

}  // namespace nn::formats::onnx_export
