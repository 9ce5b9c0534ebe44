// JS numbers checked before they become C++ integers. Embind converts a JS
// number to `unsigned` as wasm does (ToInt32): −1 arrives as 4,294,967,295
// and 2³² as 0, silently. So every count, index, size and seed crosses as a
// double and is checked here first: a whole number in range, or refused
// naming the parameter as the page wrote it.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "errors/check.hpp"

namespace glue {

inline constexpr double largest_index = 4294967295.0;     // 2³² − 1: counts, indexes, sizes
inline constexpr double largest_seed = 9007199254740992.0;  // 2⁵³: the largest whole number JS holds exactly

// Whether n is a whole number from 0 to most (NaN and ±infinity are not).
inline bool whole(double n, double most = largest_index) { return n >= 0 && n <= most && std::floor(n) == n; }

// n as JS shows it: whole numbers in full (4294967296, -1), others shortest.
[[gnu::noinline]] inline std::string js_number(double n) {
  if (std::isnan(n)) return "NaN";
  if (std::isinf(n)) return n > 0 ? "Infinity" : "-Infinity";
  char text[40];
  if (std::floor(n) == n && std::fabs(n) < 1e21) std::snprintf(text, sizeof text, "%.0f", n);
  else std::snprintf(text, sizeof text, "%.17g", n);
  return text;
}

// n as an integer, or attention::error "name: n is not a whole number from 0 to most".
[[gnu::noinline]] inline std::uint64_t whole_of(double n, const char* name, double most = largest_index) {
  ATTENTION_CHECK(whole(n, most), name, ": ", js_number(n), " is not a whole number from 0 to ", js_number(most));
  return static_cast<std::uint64_t>(n);
}

inline std::uint32_t index_of(double n, const char* name) { return static_cast<std::uint32_t>(whole_of(n, name)); }
inline std::uint64_t seed_of(double n, const char* name) { return whole_of(n, name, largest_seed); }

}  // namespace glue
