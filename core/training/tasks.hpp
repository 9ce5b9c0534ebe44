// The tasks: training-v1.md's toys and gpt-v1.md's text. Batches of token
// sequences x and their targets y (B × T, row-major; -100 where nothing is
// predicted), drawn from the PyTorch-exact generator in exactly the spec's
// order, so every batch is the one torch_train.py trains on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "random/generator.hpp"
#include "training/text.hpp"

namespace attention {

constexpr std::int64_t ignore_target = -100;

struct task_spec {
  std::string name;               // previous | reverse | sort | induction | text
  std::size_t tokens = 0;         // n content tokens, ids 0 … n-1; a separator is id n
  std::size_t length = 0;         // previous, induction, text: T
  std::size_t half = 0;           // reverse, sort: T = 2 · half
  std::size_t period_lo = 0, period_hi = 0;  // induction
  std::shared_ptr<const text_corpus> text;   // text: shared, since a run's snapshots copy the spec
};

struct task_batch {
  std::size_t batch = 0, length = 0;  // B, T
  std::vector<std::int64_t> x, y;     // (B, T) each
};

// The vocabulary V and the sequence length T a task's model sees.
std::size_t task_vocab(const task_spec& task);
std::size_t task_length(const task_spec& task);

// One batch of B sequences; the text task draws from its validation split
// when `validation` is set. The spec is assumed valid (formats/ checks it).
task_batch draw_task(generator& gen, const task_spec& task, std::size_t batch, bool validation = false);

}  // namespace attention
