// Topological sort of a network's functions (reverse DFS post-order over output consumers).
#include <algorithm>
#include <unordered_map>

#include "formats/passes/expand_repeat.hpp"
#include "nn/core/error.hpp"
#include "nn/ir/function_label.hpp"

namespace nn::formats {

std::vector<ir::Function> sort_functions(const std::vector<ir::Function>& functions,
                                         const std::string& network_name) {
  const size_t n = functions.size();
  std::unordered_map<std::string, std::vector<size_t>> consumers;  // variable -> functions reading it, in order
  for (size_t i = 0; i < n; ++i)
    for (const auto& in : functions[i].inputs) consumers[in].push_back(i);

  enum : uint8_t { kNew, kActive, kDone };
  std::vector<uint8_t> state(n, kNew);
  std::vector<size_t> post_order;
  post_order.reserve(n);
  struct Frame {
    size_t function;
    size_t output = 0;    // next output to scan
    size_t consumer = 0;  // next consumer of that output
  };
  static const std::vector<size_t> kNone;
  std::vector<Frame> stack;
  for (size_t root = 0; root < n; ++root) {
    if (state[root] != kNew) continue;
    state[root] = kActive;
    stack.push_back({root});
    while (!stack.empty()) {
      // Next unvisited consumer of the top function's outputs, or n when all are visited.
      size_t next = n;
      {
        Frame& top = stack.back();
        const auto& outputs = functions[top.function].outputs;
        while (next == n && top.output < outputs.size()) {
          auto it = consumers.find(outputs[top.output]);
          const auto& list = it == consumers.end() ? kNone : it->second;
          if (top.consumer >= list.size()) {
            ++top.output;
            top.consumer = 0;
            continue;
          }
          size_t candidate = list[top.consumer++];
          if (state[candidate] == kActive) {
            NN_FAIL(ErrorCode::kInvalid)
                << "network '" << network_name << "' is not a DAG: " << ir::label(functions[candidate])
                << " is part of a cycle";
          }
          if (state[candidate] == kNew) next = candidate;
        }
      }
      if (next != n) {
        state[next] = kActive;
        stack.push_back({next});
        continue;
      }
      state[stack.back().function] = kDone;
      post_order.push_back(stack.back().function);
      stack.pop_back();
    }
  }
  std::vector<ir::Function> sorted;
  sorted.reserve(n);
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) sorted.push_back(functions[*it]);
  return sorted;
}

}  // namespace nn::formats
