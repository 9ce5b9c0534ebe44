#include <catch2/catch.hpp>

#include "cli/arguments.hpp"

using namespace attention;

namespace {
std::optional<arguments> parsed(std::vector<const char*> args, std::string& problem) {
  args.insert(args.begin(), "attention-cli");
  return parse_arguments(static_cast<int>(args.size()), args.data(), problem);
}
}  // namespace

TEST_CASE("each command takes its own options, each once, each with a value", "[arguments]") {
  std::string problem;
  const auto a = parsed({"head", "m.safetensors", "--layer", "1", "--tokens", "3,1", "--head", "0"}, problem);
  REQUIRE(a.has_value());
  CHECK(a->command == "head");
  CHECK(a->path == "m.safetensors");
  CHECK(*a->option("--tokens") == "3,1");
  CHECK(a->option("--text") == nullptr);
  CHECK_FALSE(parsed({"trace", "x.json", "--tokens", "1"}, problem));
  CHECK(problem == "trace takes no option \"--tokens\"");
  CHECK_FALSE(parsed({"model", "m", "--tokens", "1", "--tokens", "2"}, problem));
  CHECK(problem == "--tokens given twice");
  CHECK_FALSE(parsed({"model", "m", "--tokens"}, problem));
  CHECK(problem == "--tokens needs a value");
  CHECK_FALSE(parsed({"model", "m"}, problem));
  CHECK(problem == "model needs --tokens or --text (one of them)");
  CHECK_FALSE(parsed({"model", "m", "--tokens", "1", "--text", "a"}, problem));
  CHECK_FALSE(parsed({"head", "m", "--tokens", "1", "--layer", "x", "--head", "0"}, problem));
  CHECK(problem == "head needs --layer N (0, 1, 2, …)");
  CHECK_FALSE(parsed({"head", "m", "--tokens", "1", "--layer", "0"}, problem));
  CHECK(problem == "head needs --head N (0, 1, 2, …)");
  CHECK_FALSE(parsed({"explain", "x"}, problem));
  CHECK(problem == "unknown command \"explain\"");
  CHECK(parsed({"validate", "m", "--config", "c.json"}, problem).has_value());
  CHECK(parsed({"train", "t.json", "--model", "m.safetensors"}, problem).has_value());
}

TEST_CASE("an index option is a small non-negative integer", "[arguments]") {
  CHECK(index_option("0") == 0u);
  CHECK(index_option("11") == 11u);
  CHECK_FALSE(index_option("-1"));
  CHECK_FALSE(index_option(""));
  CHECK_FALSE(index_option("1e3"));
  CHECK_FALSE(index_option("9999999999"));
}
