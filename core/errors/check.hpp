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
// A message is built from its parts as std::ostream << would print them, by
// out-of-line functions: each call site's list of types once cost a copy of
// an ostringstream and its throw (28 KB of the page's first-visit wasm).
void append(std::string& message, const char* part);
void append(std::string& message, const std::string& part);
void append(std::string& message, char part);
void append(std::string& message, bool part);
void append(std::string& message, int part);
void append(std::string& message, long part);
void append(std::string& message, long long part);
void append(std::string& message, unsigned part);
void append(std::string& message, unsigned long part);
void append(std::string& message, unsigned long long part);
void append(std::string& message, double part);

// Anything else with an operator<< (a string_view, a JSON value, a float as double).
template <typename Part>
void append(std::string& message, const Part& part) {
  if constexpr (std::is_same_v<Part, float>) {
    append(message, static_cast<double>(part));
  } else {
    std::ostringstream text;
    text << part;
    message += text.str();
  }
}

[[noreturn]] void throw_error(std::string message);

template <typename... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::string message;
  (append(message, parts), ...);
  throw_error(std::move(message));
}
}  // namespace detail

}  // namespace attention

// ATTENTION_CHECK(n > 0, "tensors[", i, "].linear: expected [in, out]");
#define ATTENTION_CHECK(condition, ...)                     \
  do {                                                      \
    if (!(condition)) ::attention::detail::fail(__VA_ARGS__); \
  } while (false)
