// libFuzzer over what `attention-cli trace -` runs: read, parse, validate,
// run, serialize. Besides the sanitizers' crashes, leaks, timeouts and
// out-of-memory, it traps when the CLI's contract breaks: exit 0 with a
// trace and nothing on stderr, or exit 2 with nothing on stdout and exactly
// one printable line on stderr.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "cli.hpp"

namespace {

// Counts what the trace would write without keeping it.
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

bool one_printable_line(const std::string& text) {
  if (text.empty() || text.back() != '\n') return false;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  counting_buffer written;
  std::ostream out(&written);
  std::ostringstream err;
  const char* args[] = {"attention-cli", "trace", "-"};
  const int code = attention::run_cli(3, args, in, out, err);
  if (code == 0 && !(err.str().empty() && written.count > 0)) __builtin_trap();
  if (code == 2 && !(written.count == 0 && one_printable_line(err.str()))) __builtin_trap();
  if (code != 0 && code != 2) __builtin_trap();
  return 0;
}
