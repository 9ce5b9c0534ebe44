#include "cli/arguments.hpp"

#include <set>

#include "errors/quote.hpp"

namespace attention {
namespace {

// What each command takes after its file.
const std::map<std::string, std::set<std::string>>& commands() {
  static const std::map<std::string, std::set<std::string>> options = {
      {"trace", {}},
      {"validate", {"--config"}},
      {"train", {"--model"}},
      {"model", {"--tokens", "--text", "--config", "--position"}},
      {"head", {"--tokens", "--text", "--layer", "--head", "--config"}},
      {"lens", {"--tokens", "--what", "--heads", "--mode", "--position", "--token"}}};
  return options;
}

}  // namespace

std::optional<std::size_t> index_option(const std::string& text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  std::size_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  return n;
}

std::optional<arguments> parse_arguments(int argc, const char* const* argv, std::string& problem) {
  if (argc < 3) return std::nullopt;
  arguments a{argv[1], argv[2], {}};
  const auto known = commands().find(a.command);
  if (known == commands().end()) {
    problem = "unknown command " + quote(a.command);
    return std::nullopt;
  }
  for (int i = 3; i < argc; i += 2) {
    const std::string name = argv[i];
    if (known->second.count(name) == 0) {
      problem = a.command + " takes no option " + quote(name);
      return std::nullopt;
    }
    if (i + 1 >= argc) {
      problem = name + " needs a value";
      return std::nullopt;
    }
    if (!a.options.emplace(name, argv[i + 1]).second) {
      problem = name + " given twice";
      return std::nullopt;
    }
  }
  if (a.command == "model" || a.command == "head") {
    if ((a.option("--tokens") != nullptr) == (a.option("--text") != nullptr)) {
      problem = a.command + " needs --tokens or --text (one of them)";
      return std::nullopt;
    }
  }
  if (a.command == "lens") {
    for (const char* name : {"--tokens", "--what"})
      if (a.option(name) == nullptr) {
        problem = std::string("lens needs ") + name;
        return std::nullopt;
      }
  }
  if (const std::string* p = a.option("--position"); p != nullptr && !index_option(*p)) {
    problem = "--position needs N (0, 1, 2, …)";
    return std::nullopt;
  }
  if (a.command == "head") {
    for (const char* name : {"--layer", "--head"})
      if (a.option(name) == nullptr || !index_option(*a.option(name))) {
        problem = std::string("head needs ") + name + " N (0, 1, 2, …)";
        return std::nullopt;
      }
  }
  return a;
}

}  // namespace attention
