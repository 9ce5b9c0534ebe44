// What the page needs to lay out a trace before it asks for any numbers:
// labels, lengths, heads and their steps' shapes, the kind of mask. JSON,
// small: the mask's Tq × Tkv cells cross as a typed array instead (at
// T = 512 they cost more as JSON than the whole trace).
#pragma once

#include <string>

#include "attention/scenario.hpp"
#include "attention/trace.hpp"

namespace attention {

std::string summary_json(const scenario& s, const trace& t);

}  // namespace attention
