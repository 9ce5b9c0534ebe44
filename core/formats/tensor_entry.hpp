// One named tensor of a scenario file ("inputs"): its name, its source
// (values, zeros, ones, rand, randn, randint, linear, embedding,
// manual_seed) and its shape, each checked against the limits before
// anything is allocated. scenario_file reads a scenario's list with it.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "attention/scenario.hpp"
#include "tensor/tensor.hpp"

namespace attention {

// The entry at `place` (e.g. "inputs[2]"), or one line naming what is wrong there.
tensor_entry parse_entry(const nlohmann::json& item, const std::string& place);

}  // namespace attention
