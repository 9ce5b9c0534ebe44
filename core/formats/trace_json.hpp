// The trace's JSON form (format v1): -inf as null, each float32 in the
// fewest digits that read back as the same float32.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "attention/trace.hpp"

namespace attention {

// Writes the trace as JSON: -inf as null, each float32 in the fewest digits
// that read back as the same float32.
void write_trace_json(std::ostream& out, const trace& t);

// The pieces, for other traces (training_trace.cpp): a list of floats
// (-inf as null), and {"shape": [...], "data": [...]}, where `drop_batch`
// writes (1, T, C) as (T, C).
void write_floats_json(std::ostream& out, const float* data, std::size_t n);
// The numbers alone, each after `separator` but the first (unless `leading`),
// formatted a block at a time; false, and nothing more formatted, once the
// stream has failed (a full disk): the caller says so, at once.
bool write_floats(std::ostream& out, const float* data, std::size_t n, std::string_view separator, bool leading);
void write_tensor_json(std::ostream& out, const std::vector<std::size_t>& shape, const float* data, bool drop_batch = false);
std::string trace_json(const trace& t);

}  // namespace attention
