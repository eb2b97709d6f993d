// nn::Error: the one exception type of libnn, with an exit-code class and a context chain.
#pragma once
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace nn {

// Exit-code classes shared by every nncli subcommand (ARCHITECTURE.md).
enum class ErrorCode : int {
  kInvalid = 1,      // bad input or I/O failure
  kUsage = 2,        // wrong command-line usage
  kUnsupported = 3,  // the target lacks functions
  kCheckFailed = 4,  // a verification or regression gate failed
  kInternal = 5,     // a bug in nncli
};

class Error : public std::exception {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) { rebuild(); }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // Prepends a context such as "'model.nnp'" or "function 'fc1' (Affine)".
  Error& add_context(const std::string& ctx) {
    context_.insert(context_.begin(), ctx);
    rebuild();
    return *this;
  }
  const char* what() const noexcept override { return full_.c_str(); }

 private:
  // "ctx1: ctx2: message", leaving out a context the rest already starts with (a file named by both the
  // reader and its caller appears once: never "'x.nnp': 'x.nnp': write failed").
  void rebuild() {
    full_ = message_;
    for (auto it = context_.rbegin(); it != context_.rend(); ++it) {
      const std::string prefix = *it + ": ";
      if (full_.compare(0, prefix.size(), prefix) != 0) full_ = prefix + full_;
    }
  }
  ErrorCode code_;
  std::string message_;
  std::vector<std::string> context_;
  std::string full_;
};

namespace detail {
// Collects a streamed message; Thrower turns it into an nn::Error.
struct Message {
  std::ostringstream os;
  template <class T>
  Message& operator<<(const T& v) {
    os << v;
    return *this;
  }
};
struct Thrower {
  ErrorCode code;
  [[noreturn]] void operator&(const Message& m) const { throw Error(code, m.os.str()); }
};
}  // namespace detail

// Rethrows an nn::Error with a context prefix; an allocation failure becomes an nn::Error ("out of
// memory") so its message names the file and place too; other exceptions pass through unchanged.
template <class F>
auto with_context(const std::string& ctx, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (Error& e) {
    e.add_context(ctx);
    throw;
  } catch (const std::bad_alloc&) {
    Error e(ErrorCode::kInvalid, "out of memory");
    e.add_context(ctx);
    throw e;
  }
}

}  // namespace nn

// NN_CHECK(cond) << "message " << value;  throws nn::Error(kInvalid) when cond is false.
#define NN_CHECK(cond) \
  if (cond) {          \
  } else               \
    ::nn::detail::Thrower{::nn::ErrorCode::kInvalid} & ::nn::detail::Message()
#define NN_CHECK_CODE(cond, code) \
  if (cond) {                     \
  } else                          \
    ::nn::detail::Thrower{code} & ::nn::detail::Message()
#define NN_FAIL(code) ::nn::detail::Thrower{code} & ::nn::detail::Message()
#define NN_INTERNAL_CHECK(cond) NN_CHECK_CODE(cond, ::nn::ErrorCode::kInternal) << "internal: " #cond ": "
