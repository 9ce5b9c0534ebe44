// The command line: `attention-cli trace|validate FILE` (FILE may be -).
// Kept apart from main() so tests drive it with string streams.
#pragma once

#include <istream>
#include <ostream>

namespace attention {

// Exit codes: 0 done; 2 invalid scenario or unreadable file (one line on
// `err`, nothing on `out`); 64 usage error.
int run_cli(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace attention
