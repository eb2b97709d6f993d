// cpp_infer: load a model with nncli's C++ API, feed one raw float32 file per input, print the outputs.
// Usage: cpp_infer MODEL [INPUT.bin ...] [-b BATCH]     e.g. cpp_infer mlp.nnp input_b2.bin -b 2
#include <nncli/runtime.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) try {
  std::vector<std::string> args(argv + 1, argv + argc);
  nncli::ModelOptions options;
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "-b") continue;
    options.batch_size = std::stoll(args[i + 1]);
    args.erase(args.begin() + long(i), args.begin() + long(i) + 2);
    break;
  }
  if (args.empty()) return std::fprintf(stderr, "usage: cpp_infer MODEL [INPUT.bin ...] [-b BATCH]\n"), 2;

  nncli::Model model(args[0], options);
  for (size_t i = 0; i < model.inputs().size() && i + 1 < args.size(); ++i) {
    std::ifstream in(args[i + 1], std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<float> x(bytes.size() / sizeof(float));
    std::copy(bytes.begin(), bytes.begin() + long(x.size() * sizeof(float)), reinterpret_cast<char*>(x.data()));
    model.set_input(i, x.data(), x.size());
  }
  model.run();

  for (size_t o = 0; o < model.outputs().size(); ++o) {
    const nncli::Variable& v = model.outputs()[o];
    std::printf("%s (", v.name.c_str());
    for (size_t d = 0; d < v.shape.size(); ++d) std::printf("%s%lld", d ? ", " : "", (long long)v.shape[d]);
    std::printf("):");
    for (float value : model.output(o)) std::printf(" %.9g", value);
    std::printf("\n");
  }
  return 0;
} catch (const nncli::Error& e) {
  std::fprintf(stderr, "cpp_infer: error: %s\n", e.what());
  return e.code();
}
