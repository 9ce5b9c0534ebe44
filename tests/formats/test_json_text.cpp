#include <catch2/catch.hpp>

#include <string>

#include "errors/check.hpp"
#include "formats/json_text.hpp"

using namespace attention;

namespace {
std::string message_of(std::string_view text, std::size_t max_bytes = 1000, std::size_t depth = 4) {
  try {
    read_json(text, "scenario", max_bytes, depth);
  } catch (const error& e) {
    return e.what();
  }
  return "(accepted)";
}
}  // namespace

TEST_CASE("a JSON document reads as nlohmann would", "[json_text]") {
  CHECK(read_json(R"({"a": [1, 2.5, "x"]})", "scenario", 100, 4)["a"][1] == 2.5);
  CHECK(read_json(" [1] \n\t", "scenario", 100, 4) == nlohmann::json::array({1}));
}

TEST_CASE("a number beyond a double is a message with its place, not an exception", "[json_text]") {
  CHECK(message_of("1e999") == "scenario: not valid JSON at line 1, column 1: the number \"1e999\" is too large for a double");
  CHECK(message_of("{\"a\":\n [1, -1e999]}") ==
        "scenario: not valid JSON at line 2, column 6: the number \"-1e999\" is too large for a double");
}

TEST_CASE("a NUL byte anywhere is refused, even after a whole document", "[json_text]") {
  using namespace std::string_literals;
  CHECK(message_of("{\"a\": 1}\0garbage"s) == "scenario: not valid JSON at line 1, column 9: a NUL byte");
  CHECK(message_of("\0"s) == "scenario: not valid JSON at line 1, column 1: a NUL byte");
}

TEST_CASE("only white space may follow the document", "[json_text]") {
  CHECK_THAT(message_of("{} x"), Catch::StartsWith("scenario: not valid JSON at line 1, column 4: syntax error"));
  CHECK_THAT(message_of("[1] [2]"), Catch::StartsWith("scenario: not valid JSON at line 1, column 5: syntax error"));
}

TEST_CASE("syntax errors quote what was read safely, on one line", "[json_text]") {
  const std::string m = message_of("[tru\x1b[2J]");
  CHECK(m.find('\x1b') == std::string::npos);
  CHECK(m.find('\n') == std::string::npos);
  const std::string bytes = message_of("[\"\xff\xfe\"]");
  CHECK(bytes.find('\xff') == std::string::npos);
  CHECK_THAT(bytes, Catch::StartsWith("scenario: not valid JSON at line 1, column"));
}

TEST_CASE("size and depth limits come before any parsing", "[json_text]") {
  CHECK(message_of(std::string(1001, ' ')) == "scenario: 1001 bytes exceed the limit of 1000");
  // the place is the bracket that goes one level too deep
  CHECK(message_of("[[[[[1]]]]]") == "scenario: nested deeper than 4 levels at line 1, column 5");
  CHECK(message_of("[[[[\"]]]]]]\"]]]]") == "(accepted)");  // brackets inside strings do not count
  CHECK(message_of(std::string(200, '[')) == "scenario: nested deeper than 4 levels at line 1, column 5");
  CHECK(message_of("{\"a\": [\"[\\\"\", \n  {\"b\": [[{}]]}]}") == "scenario: nested deeper than 4 levels at line 2, column 10");
}

TEST_CASE("a key twice in one object is refused, naming it: the last one no longer silently wins", "[json_text]") {
  CHECK(message_of(R"({"a": 1, "a": 2})") == "a: duplicate key; each key may appear once");
  CHECK(message_of(R"({"t": [{"n": 1}, {"m": {"x": 1, "x": 1}}]})") == "t[1].m.x: duplicate key; each key may appear once");
  // a key that is not a plain name is quoted, never echoed raw
  CHECK(message_of("{\"a\\u001b[2J\": 1, \"a\\u001b[2J\": 2}") == "scenario: duplicate key \"a\\u001B[2J\"; each key may appear once");
  // every key along the place is made safe too (the fuzzer's find: DEL characters in a parent key)
  const std::string parent = message_of("{\"mo\u007fd\": {\"eval\": 1, \"eval\": 2}}");
  CHECK(parent == "\"mo\\u007Fd\".eval: duplicate key; each key may appear once");
  CHECK(parent.find('\x7f') == std::string::npos);
  // the same key in two objects, or a key equal to a value, is fine
  CHECK(message_of(R"({"a": {"b": 1}, "c": {"b": "a"}})") == "(accepted)");
  CHECK(message_of(R"([{"a": 1}, {"a": 2}])") == "(accepted)");
}

TEST_CASE("the top-level keys of a document, as far as it parses", "[json_text]") {
  CHECK(top_level_keys(R"({"task": {"model": 1}, "train": 2})") == std::set<std::string>{"task", "train"});
  CHECK(top_level_keys(R"({"version": 1, "task": {"name": "x",}})") == std::set<std::string>{"version", "task"});
  CHECK(top_level_keys("[1, 2]").empty());
  CHECK(top_level_keys("").empty());
}
