// The one error type of the core, and the check macro that throws it.
// Every rejected input becomes an `attention::error` whose message names the
// JSON place and the problem, so the CLI, the tests and the page show the same
// words.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace attention {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
template <typename... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::ostringstream message;
  (message << ... << parts);
  throw error(message.str());
}
}  // namespace detail

}  // namespace attention

// ATTENTION_CHECK(n > 0, "tensors[", i, "].linear: expected [in, out]");
#define ATTENTION_CHECK(condition, ...)                     \
  do {                                                      \
    if (!(condition)) ::attention::detail::fail(__VA_ARGS__); \
  } while (false)
