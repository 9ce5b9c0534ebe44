// core/lessons/position.hpp: one step of one head compared across two traces
// of the same rotary scenario at two offsets.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "attention/run.hpp"
#include "errors/check.hpp"
#include "formats/scenario_file.hpp"
#include "lessons/position.hpp"
#include "support.hpp"

using namespace attention;

namespace {
trace at_offset(std::uint64_t offset) {
  nlohmann::json j = test_support::read_json(test_support::presets_dir() + "/rotary-sun-rises.json");
  j["attention"]["rotary"]["offset"] = offset;
  return run_json(j.dump());
}
}  // namespace

TEST_CASE("at offsets 0 and 5 the turned queries differ and the scores agree within float32 rounding", "[position]") {
  const trace a = at_offset(0), b = at_offset(5);
  for (std::size_t head : {0, 1}) {
    const step_comparison q = compare_step(a, b, head, "q_rotated");
    CHECK(q.largest_difference > 0.1f);
    CHECK_FALSE(q.agrees);
    const step_comparison scores = compare_step(a, b, head, "scores");
    CHECK(scores.largest_difference < 1e-5f);
    CHECK(scores.largest_value > 0.1f);
    CHECK(scores.agrees);
    // q before the turn does not depend on the offset at all
    CHECK(compare_step(a, b, head, "q").largest_difference == 0.0f);
  }
}

TEST_CASE("the comparison is the largest |a − b| and refuses a step one trace lacks", "[position]") {
  const trace a = at_offset(0);
  const trace plain = test_support::load_preset("sun-rises-causal").t;
  const step_comparison same = compare_step(a, a, 1, "weights");
  CHECK(same.largest_difference == 0.0f);
  CHECK(same.agrees);
  CHECK_THROWS_WITH(compare_step(a, plain, 0, "q_rotated"), "compare: no step q_rotated in head 0");
  CHECK_THROWS_WITH(compare_step(a, a, 2, "scores"), "compare: no step scores in head 2");
  const trace other = test_support::load_preset("karpathy-value").t;  // (4, 8, 8) against (1, 6, 6)
  CHECK_THROWS_WITH(compare_step(a, other, 0, "scores"), "compare: the two scores differ in shape");
}
