// Reading fields of a checked JSON document: places as the specs name them,
// values shown safely, integers at their full 64-bit width.
#include <catch2/catch.hpp>

#include "errors/check.hpp"
#include "formats/json_fields.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("places read as the specs name them", "[json_fields]") {
  CHECK(at("", "seed") == "seed");
  CHECK(at("model", "embed") == "model.embed");
  CHECK(at("tensors", 2) == "tensors[2]");
  CHECK(unknown_field("tensors[0]", "std") == "tensors[0].std: unknown field");
  CHECK(unknown_field("", "odd key", "training") == "training: unknown field \"odd key\"");
  CHECK(field_problem("model", "embed", "training", "duplicate key") == "model.embed: duplicate key");
}

TEST_CASE("values in messages: strings quoted, lists and objects by kind, long numbers cut", "[json_fields]") {
  CHECK(shown(json("a\nb")) == "\"a\\nb\"");
  CHECK(shown(json::array({1, 2})) == "a list");
  CHECK(shown(json::object()) == "an object");
  CHECK(shown(json(2.5)) == "2.5");
  CHECK(shown(json(nullptr)) == "null");
}

TEST_CASE("integers at 64 bits, checked against a limit before they are narrowed", "[json_fields]") {
  CHECK(positive_integer(json(4294967304ull)) == 4294967304ull);
  CHECK(positive_integer(json(18446744073709551615ull)) == 18446744073709551615ull);
  CHECK(positive_integer(json(-1)) == 0);
  CHECK(positive_integer(json(1.0)) == 0);  // a float is not an integer
  CHECK(size_at_most(json(7), "model.layers", 8) == 7);
  CHECK_THROWS_WITH(size_at_most(json(4294967304ull), "model.embed", 128), "model.embed: 4294967304 is beyond the limit of 128");
  CHECK_THROWS_WITH(size_at_most(json(0), "train.steps", 10), "train.steps: expected a positive integer, got 0");
  CHECK_THROWS_WITH(size_at_most(json("8"), "train.steps", 10), "train.steps: expected a positive integer, got \"8\"");
}

TEST_CASE("seeds wrap negative integers as torch.manual_seed does", "[json_fields]") {
  CHECK(parse_seed(json(42), "seed") == 42);
  CHECK(parse_seed(json(-1), "seed") == UINT64_MAX);
  CHECK_THROWS_WITH(parse_seed(json(1.5), "eval.seed"), "eval.seed: expected an integer");
}

TEST_CASE("only the allowed fields, and strings where strings are due", "[json_fields]") {
  const json object = {{"name", "x"}, {"colour", "red"}};
  CHECK_THROWS_WITH(only_fields(object, "tensors[1]", {"name"}), "tensors[1].colour: unknown field");
  CHECK_NOTHROW(only_fields(object, "", {"name", "colour"}));
  CHECK(string_field(object, "name", "") == "x");
  CHECK_THROWS_WITH(string_field(json{{"id", 3}}, "id", ""), "id: expected a string");
}
