// Reading a scenario file (scenario-v1.md): every rule of the spec, every
// size limit (formats/limits.hpp) and the cost it implies
// (formats/scenario_cost.hpp), checked before any tensor exists.
#pragma once

#include <string_view>

#include "attention/scenario.hpp"
#include "attention/trace.hpp"

namespace attention {

// Parses and validates; throws attention::error naming the place and problem.
scenario parse_scenario(std::string_view json_text);

// parse_scenario, then run.
trace run_json(std::string_view json_text);

}  // namespace attention
