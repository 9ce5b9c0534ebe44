#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "formats/tensor_entry.hpp"

using namespace attention;
using nlohmann::json;

namespace {

// The line parse_entry gives for `text`, or "(accepted)".
std::string message_of(const std::string& text) {
  try {
    parse_entry(json::parse(text), "tensors[1]");
  } catch (const error& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("each source gives its shape", "[tensor_entry]") {
  const tensor_entry values = parse_entry(json::parse(R"({"name": "x", "values": [[1, 2, 3], [4, 5, 6]]})"), "t");
  CHECK(values.source == tensor_entry::source_kind::values);
  CHECK(values.shape == shape_t{2, 3});
  CHECK(parse_entry(json::parse(R"({"name": "w", "linear": [8, 4]})"), "t").shape == shape_t{8, 4});
  CHECK(parse_entry(json::parse(R"({"name": "z", "zeros": [2, 3, 4]})"), "t").shape == shape_t{2, 3, 4});
  const tensor_entry ints = parse_entry(json::parse(R"({"name": "i", "randint": [-2, 5], "shape": [7]})"), "t");
  CHECK(ints.low == -2);
  CHECK(ints.high == 5);
  CHECK(ints.shape == shape_t{7});
  const tensor_entry table = parse_entry(json::parse(R"({"name": "e", "embedding": [10, 4], "ids": [3, 0, 9]})"), "t");
  CHECK(table.shape == shape_t{3, 4});
  CHECK(table.table_rows == 10);
  CHECK(table.ids == std::vector<std::int64_t>{3, 0, 9});
  CHECK(parse_entry(json::parse(R"({"manual_seed": 7})"), "t").source == tensor_entry::source_kind::manual_seed);
}

TEST_CASE("a bad entry is one line naming its place", "[tensor_entry]") {
  CHECK(message_of(R"({"name": "2x", "zeros": [2]})") ==
        "tensors[1].name: \"2x\" is not a name ([A-Za-z_][A-Za-z0-9_]*)");
  CHECK(message_of(R"({"name": "x"})") ==
        "tensors[1]: needs a source: one of values, zeros, ones, rand, randn, randint, linear, embedding");
  CHECK(message_of(R"({"name": "x", "zeros": [2], "ones": [2]})") ==
        "tensors[1]: has two sources, ones and zeros; keep exactly one");
  CHECK(message_of(R"({"name": "x", "zeros": [2], "shape": [2]})") == "tensors[1].shape: only randint takes a shape");
  CHECK(message_of(R"({"name": "x", "randint": [3, 3], "shape": [2]})") ==
        "tensors[1].randint: expected [low, high], two integers with low < high");
  CHECK(message_of(R"({"name": "e", "embedding": [4, 2], "ids": [1, 4]})") ==
        "tensors[1].ids[1]: 4 is out of range [0, 4)");
  CHECK(message_of(R"({"name": "x", "zeros": [0, 2]})") ==
        "tensors[1].zeros: expected a shape, a list of 1 to 3 positive integers");
}

TEST_CASE("a shape past the limit is named as written, before anything is allocated", "[tensor_entry]") {
  // 2^33 rows: past a 32-bit size_t, named as the file wrote it
  const std::string message = message_of(R"({"name": "x", "zeros": [8589934592, 2]})");
  CHECK(message == "tensors[1].zeros: [8589934592, 2] has 17179869184 elements; the limit is " +
                       std::to_string(limits::tensor_elements));
}
