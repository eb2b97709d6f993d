// Recurrent engine shared by RNN, LSTM and GRU: multi-layer, bidirectional
// forward and BPTT backward over nnabla's weight layouts (w0 (D, G, H, I+H), w
// (L-1, D, G, H, D*H+H), b (L, D, R, H), states (L, D, B, H)).
#pragma once
#include <cstdint>
#include <vector>

#include "nn/core/random.hpp"

namespace nn::ops {

// Cell types; gate order follows nnabla: LSTM (i, f, g, o), GRU (r, z, n) with
// bias (r, z, n_x, n_h).
enum class CellKind { kRnnTanh, kRnnRelu, kLstm, kGru };

struct RecurrentDims {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, layers = 1, dirs = 1;
  CellKind kind = CellKind::kRnnTanh;

  int64_t gates() const { return kind == CellKind::kLstm ? 4 : kind == CellKind::kGru ? 3 : 1; }
  int64_t bias_rows() const { return kind == CellKind::kLstm || kind == CellKind::kGru ? 4 : 1; }
  int64_t layer_input(int64_t layer) const { return layer == 0 ? input : dirs * hidden; }
};

// Raw input pointers; w is null when layers == 1, b and c0 may be null (no bias
// / not an LSTM).
struct RecurrentParams {
  const float* x = nullptr;
  const float* h0 = nullptr;
  const float* c0 = nullptr;
  const float* w0 = nullptr;
  const float* w = nullptr;
  const float* b = nullptr;
};

// Gradient buffers, added to (callers zero them to overwrite); a null pointer
// skips that input.
struct RecurrentGrads {
  float* dx = nullptr;
  float* dh0 = nullptr;
  float* dc0 = nullptr;
  float* dw0 = nullptr;
  float* dw = nullptr;
  float* db = nullptr;
};

class RecurrentEngine {
 public:
  // dropout applies to every layer's output that feeds another layer, only when
  // training.
  void setup(const RecurrentDims& dims, double dropout, bool training);
  // y (T, B, D*H), hn (L, D, B, H), cn (LSTM only); keeps what backward needs.
  void forward(const RecurrentParams& p, float* y, float* hn, float* cn, RandomEngine& rng);
  // dy, dhn, dcn: output grads (dcn null unless LSTM). Uses the caches of the
  // last forward.
  void backward(const RecurrentParams& p, const float* dy, const float* dhn, const float* dcn,
                const RecurrentGrads& g);

 private:
  // Per layer and direction: states in processing order (entry 0 = initial),
  // activated gates, GRU h-side.
  struct Trace {
    std::vector<float> h, c, gates, ah;
  };
  const float* weight_of(const RecurrentParams& p, int64_t layer, int64_t dir) const;
  float* weight_grad_of(const RecurrentGrads& g, int64_t layer, int64_t dir) const;
  const float* layer_input(const RecurrentParams& p, int64_t layer) const;
  void run_direction(const RecurrentParams& p, int64_t layer, int64_t dir, float* y_layer);
  void backprop_direction(const RecurrentParams& p, int64_t layer, int64_t dir, const float* dy_layer,
                          const float* dhn, const float* dcn, const RecurrentGrads& g, float* dx_layer);

  RecurrentDims d_;
  double dropout_ = 0.0;
  bool training_ = true;
  std::vector<std::vector<float>> outputs_;  // per layer: (T, B, D*H)
  std::vector<std::vector<float>> inputs_;   // per layer > 0: input after dropout
  std::vector<std::vector<float>> masks_;    // per layer > 0: dropout scale per element
  std::vector<Trace> traces_;                // layer * dirs + dir
  std::vector<float> pre_x_, pre_h_;         // (B, G*H) scratch
};

}  // namespace nn::ops
