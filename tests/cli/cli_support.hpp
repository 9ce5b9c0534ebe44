// attention-cli run in the test's process on words and an input: its exit
// code and both streams.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"

namespace cli_support {

struct result {
  int code;
  std::string out, err;
};

inline result cli(const std::vector<std::string>& words, const std::string& input = "") {
  std::vector<const char*> args{"attention-cli"};
  for (const std::string& w : words) args.push_back(w.c_str());
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = attention::run_cli(static_cast<int>(args.size()), args.data(), in, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace cli_support
