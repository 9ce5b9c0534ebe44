// What the page needs to lay out a trace before it asks for any numbers:
// labels, lengths, heads and their steps' shapes, the mask. JSON, small.
#pragma once

#include <string>

#include "scenario.hpp"
#include "trace.hpp"

namespace attention {

std::string summary_json(const scenario& s, const trace& t);

}  // namespace attention
