// The first exception thrown by work inside a parallel loop, kept to rethrow after it: no exception may leave
// an OpenMP region (it would terminate the process).
#pragma once
#include <exception>
#include <mutex>
#include <utility>

namespace nn {

class FirstException {
 public:
  // Runs f, keeping what it throws when nothing was kept yet.
  template <class F>
  void run(F&& f) noexcept {
    try {
      std::forward<F>(f)();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!first_) first_ = std::current_exception();
    }
  }
  // Rethrows the kept exception, if any (after the loop).
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr first_;
};

}  // namespace nn
