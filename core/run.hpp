// Runs a validated scenario: draws its tensors in order from PyTorch's
// generator, then runs the attention layer, recording every step.
#pragma once

#include <string_view>

#include "scenario.hpp"
#include "trace.hpp"

namespace attention {

trace run(const scenario& s);

// parse_scenario, then run.
trace run_json(std::string_view json_text);

}  // namespace attention
