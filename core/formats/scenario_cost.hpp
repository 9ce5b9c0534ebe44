// What a scenario will cost before anything is allocated: random numbers
// drawn, multiply-adds of the layer, and numbers the trace holds (and writes).
// The element limits alone let a few hundred bytes ask for minutes of work
// and gigabytes; these bounds keep any accepted scenario under 2 s natively
// and its trace under 64 MB of floats (README.md, "Limits").
#pragma once

#include <cstdint>

#include "attention/scenario.hpp"

namespace attention {

struct scenario_cost {
  std::uint64_t draws = 0;          // random numbers the tensors draw (an embedding draws its whole table)
  std::uint64_t multiply_adds = 0;  // projections, q @ kᵀ, weights @ v, the output projection
  std::uint64_t trace_numbers = 0;  // floats in the trace: named tensors and every step of every head
};

// Saturating: absurd shapes give huge costs, never wrapped small ones, with
// 32-bit size_t (wasm) as with 64-bit.
scenario_cost cost_of(const scenario& s);

// Throws attention::error naming the tensor or head where a bound is crossed.
void check_cost(const scenario& s);

}  // namespace attention
