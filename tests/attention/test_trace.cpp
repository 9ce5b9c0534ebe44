// The trace as a struct: its named tensors are found by name.
#include <catch2/catch.hpp>

#include "attention/trace.hpp"
#include "formats/scenario_file.hpp"

using namespace attention;

TEST_CASE("find_tensor finds named tensors and nothing else", "[trace]") {
  const trace t = run_json(R"({"version": 1, "id": "find", "tensors": [{"name": "x", "ones": [2, 2]}],
                               "attention": {"x": "x", "heads": [{}]}})");
  REQUIRE(t.find_tensor("x") != nullptr);
  CHECK(t.find_tensor("y") == nullptr);
}
