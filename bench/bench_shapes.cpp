// What a change of input shapes costs through nncli::Model (scripts/bench_shapes.sh): a run at a shape already set
// up (best mean of 5 rounds) at each of the two shapes given; the first run at a new shape (the second shape one
// longer on the axis where the two differ: its import, or the shape template's learning, included), later new
// shapes (the median of five more, each one longer: built from the template where one was learnt) and what they
// cost over the run at the second shape; a return to the first shape (the median of 5, each after a run at the
// second).
//
//   bench_shapes MODEL NAME=d0,d1,... NAME=d0,d1,...   (two shapes of the model's one input)
// Prints one line: the three times in ms and the ratios of the last two to the first.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "nncli/runtime.hpp"

namespace {

std::vector<int64_t> dims_of(const std::string& spec, std::string* name) {
  const size_t eq = spec.find('=');
  *name = spec.substr(0, eq);
  std::vector<int64_t> dims;
  for (size_t at = eq + 1; at < spec.size();) {
    const size_t comma = std::min(spec.find(',', at), spec.size());
    dims.push_back(std::stoll(spec.substr(at, comma - at)));
    at = comma + 1;
  }
  return dims;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Sets the shape and values of the one input, then runs; the time of both (ms).
double switch_and_run(nncli::Model& model, const std::vector<int64_t>& dims) {
  const auto t0 = std::chrono::steady_clock::now();
  model.set_input_shapes({dims});
  std::vector<float> x(size_t(model.inputs()[0].size()), 0.25f);
  model.set_input(0, x.data(), x.size());
  model.run();
  return ms_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: bench_shapes MODEL NAME=d0,d1,... NAME=d0,d1,...\n");
    return 2;
  }
  try {
    std::string name;
    const auto a = dims_of(argv[2], &name), b = dims_of(argv[3], &name);
    nncli::Model model(argv[1], {.input_shapes = {{name, a}}});
    std::vector<float> x(size_t(model.inputs()[0].size()), 0.25f);
    model.set_input(0, x.data(), x.size());
    const double steady = 1e3 * bench::best_seconds_per_call([&] { model.run(); }, 1.0, 5, 5);
    // New shapes step along the first axis where the two shapes differ; the first of them also learns the
    // model's shape template (ONNX models with dynamic axes), the later ones are built from it.
    size_t axis = 0;
    while (axis + 1 < b.size() && a[axis] == b[axis]) ++axis;
    switch_and_run(model, b);
    const double at_b = 1e3 * bench::best_seconds_per_call([&] { model.run(); }, 1.0, 5, 5);
    std::vector<double> news, backs;
    for (int64_t k = 1; k <= 6; ++k) {
      auto new_shape = b;
      new_shape[axis] += k;
      news.push_back(switch_and_run(model, new_shape));
    }
    const double first_new = news[0];
    news.erase(news.begin());
    for (int i = 0; i < 5; ++i) {
      switch_and_run(model, b);
      backs.push_back(switch_and_run(model, a));
    }
    std::sort(news.begin(), news.end());
    std::sort(backs.begin(), backs.end());
    const double later = news[2], back = backs[2];
    std::printf(
        "%s %s -> %s: run %.4f ms at the first, %.4f at the second shape; first new shape %.3f ms, later new "
        "shapes %.3f ms (%.3f ms over the run, %.2fx it); back at the first shape %.4f ms (%.2fx)\n",
        argv[1], argv[2], argv[3], steady, at_b, first_new, later, later - at_b, (later - at_b) / at_b, back,
        back / steady);
  } catch (const nncli::Error& e) {
    std::fprintf(stderr, "bench_shapes: %s\n", e.what());
    return 1;
  }
  return 0;
}
