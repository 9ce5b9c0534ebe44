// The command line's words: `attention-cli COMMAND FILE [--option VALUE]…`,
// each command with the options it takes. Wrong words are a usage error
// (exit 64), never a half-understood command.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace attention {

struct arguments {
  std::string command, path;
  std::map<std::string, std::string> options;  // "--tokens" → "3,1,4"

  const std::string* option(const std::string& name) const {
    const auto found = options.find(name);
    return found == options.end() ? nullptr : &found->second;
  }
};

// The arguments, or nullopt with the reason in `problem` (an unknown command
// or option, an option twice or without its value, a missing or a conflicting one).
std::optional<arguments> parse_arguments(int argc, const char* const* argv, std::string& problem);

// A non-negative integer option (--layer 1) below 2³¹, or nullopt.
std::optional<std::size_t> index_option(const std::string& text);

}  // namespace attention
