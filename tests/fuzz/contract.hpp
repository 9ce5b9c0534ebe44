// The CLI's contract, as both fuzz targets check it: exit 0 with output and
// nothing on stderr, or exit 2 with nothing on stdout and exactly one
// printable line on stderr. Anything else traps, so libFuzzer keeps the input.
#pragma once

#include <cstddef>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>
#include <initializer_list>

#include "cli/cli.hpp"

namespace fuzz {

// Counts what the CLI writes without keeping it.
struct counting_buffer : std::streambuf {
  std::size_t count = 0;
  int overflow(int c) override {
    if (c != traits_type::eof()) ++count;
    return c == traits_type::eof() ? 0 : c;
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    count += static_cast<std::size_t>(n);
    return n;
  }
};

inline bool one_printable_line(const std::string& text) {
  if (text.empty() || text.back() != '\n') return false;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

// attention-cli with these arguments on the input, trapping when the contract breaks;
// the exit code.
inline int run_cli_checked(std::initializer_list<const char*> arguments, const std::string& input) {
  std::istringstream in(input);
  counting_buffer written;
  std::ostream out(&written);
  std::ostringstream err;
  std::vector<const char*> args{"attention-cli"};
  args.insert(args.end(), arguments.begin(), arguments.end());
  const int code = attention::run_cli(static_cast<int>(args.size()), args.data(), in, out, err);
  if (code == 0 && !(err.str().empty() && written.count > 0)) __builtin_trap();
  if (code == 2 && !(written.count == 0 && one_printable_line(err.str()))) __builtin_trap();
  if (code != 0 && code != 2) __builtin_trap();
  return code;
}

// `attention-cli COMMAND -` on the input.
inline void run_cli_checked(const char* command, const std::string& input) { run_cli_checked({command, "-"}, input); }

}  // namespace fuzz
