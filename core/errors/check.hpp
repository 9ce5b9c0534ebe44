// The one error type of the core, and the check macro that throws it.
// Every rejected input becomes an `attention::error` whose message names the
// JSON place and the problem, so the CLI, the tests and the page show the same
// words.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace attention {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
// Out of line: one copy of the throw for every message.
[[noreturn]] void throw_error(const std::ostringstream& message);

template <typename... Parts>
[[noreturn]] void fail_parts(const Parts&... parts) {
  std::ostringstream message;
  (message << ... << parts);
  throw_error(message);
}

// Literals decay to const char* first, so "abc" and "abcd" share one
// instantiation: each distinct list of array sizes was a copy of the body
// (28 KB of the page's first-visit wasm before this).
template <typename... Parts>
[[noreturn]] inline void fail(const Parts&... parts) {
  fail_parts<std::decay_t<const Parts>...>(parts...);
}
}  // namespace detail

}  // namespace attention

// ATTENTION_CHECK(n > 0, "tensors[", i, "].linear: expected [in, out]");
#define ATTENTION_CHECK(condition, ...)                     \
  do {                                                      \
    if (!(condition)) ::attention::detail::fail(__VA_ARGS__); \
  } while (false)
