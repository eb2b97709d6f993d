// Whether the forward passes of this thread may be followed by a backward pass (nnabla's no_grad): inference
// runs turn it off so kernels may keep data in layouts and fusions that only a forward pass can use.
#pragma once

namespace nn {

bool grad_enabled();

// Turns gradients off for this thread while alive (nests; restores the previous state).
class NoGradScope {
 public:
  NoGradScope();
  ~NoGradScope();
  NoGradScope(const NoGradScope&) = delete;
  NoGradScope& operator=(const NoGradScope&) = delete;

 private:
  bool saved_;
};

}  // namespace nn
