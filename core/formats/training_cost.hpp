// What a training file will cost before any work: one step, one evaluation,
// the evaluations a trace keeps, and the whole run. The per-tensor limits
// alone let a few hundred bytes ask for an hour of work or gigabytes of
// trace; these bounds keep any accepted file within minutes and megabytes
// (README.md, "Limits").
#pragma once

#include <cstdint>

#include "training/training.hpp"

namespace attention {

struct training_cost {
  std::uint64_t step_multiply_adds = 0;  // one optimizer step: forward and backward of train.batch sequences
  std::uint64_t eval_multiply_adds = 0;  // one evaluation: a forward of eval.batch sequences
  std::uint64_t eval_numbers = 0;        // floats that forward keeps for it (every intermediate, for the page)
  std::uint64_t evaluations = 0;         // at step 0, every eval.every steps, and the last one
  std::uint64_t kept_attention = 0;      // attention numbers the evaluations keep: evaluations · L · H · T · T
  std::uint64_t total_multiply_adds = 0; // every step and every evaluation
  // The time model (training_cost.cpp): picoseconds natively on the README's machine.
  std::uint64_t step_picoseconds = 0;        // one optimizer step
  std::uint64_t eval_picoseconds = 0;        // one evaluation's forward, what it keeps and writes
  std::uint64_t sample_picoseconds = 0;      // one evaluation's sample
  std::uint64_t steps_picoseconds = 0;       // every step
  std::uint64_t evaluations_picoseconds = 0; // every evaluation and its sample
  std::uint64_t run_picoseconds = 0;         // the whole run: limits::training::run_seconds bounds it
};

// Saturating: absurd sizes give huge costs, never wrapped small ones.
training_cost cost_of(const training_spec& spec);

// Throws attention::error naming the field to change where a bound is crossed.
void check_cost(const training_spec& spec);

}  // namespace attention
