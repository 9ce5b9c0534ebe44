// The command line: `attention-cli COMMAND …` (cli.cpp's usage lists every
// command and option). Kept apart from main() so tests drive it with string
// streams.
#pragma once

#include <istream>
#include <ostream>

namespace attention {

// Exit codes, as the usage lists them: 0 done; 2 a refused input, out of
// memory or an internal error (one line on `err`); 64 a usage error; 74
// standard output could not be written.
int run_cli(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace attention
