// Float32 values as the fewest decimal digits that read back as the same
// float32: the numbers of every trace. Natively std::to_chars does it; the
// wasm build's libc++ has no float to_chars, and a printf/strtof search took
// 26 µs a number there (417 s for the largest accepted trace).
#pragma once

#include <cstddef>
#include <string>

namespace attention {

// The shortest text of a finite float (std::to_chars where the library has it).
std::string float_text(float value);

// Writes into buffer (at least 32 bytes), returns the length. Same digits and
// notation as std::to_chars(value) (the shorter of %f and %e, %f on a tie),
// found with double arithmetic and a check that cannot be fooled by rounding:
// a candidate is kept only if it lies inside value's rounding interval by a
// margin. Near an interval's edge it keeps a longer, still exact, candidate.
std::size_t float_text_portable(char* buffer, std::size_t size, float value);

// float_text_portable or std::to_chars, whichever this build has.
std::size_t shortest(char* buffer, std::size_t size, float value);

}  // namespace attention
