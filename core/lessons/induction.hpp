// The induction lesson's checked claims: on the lesson's own text (random
// tokens, then the same tokens again) a trained two-layer model predicts the
// repeated half and not the first, and loses the repeated half when its
// induction head is ablated. The model is a loaded_model, as the Model view
// opens it, so the lesson measures what the learner inspects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "models/loaded_model.hpp"

namespace attention {

// The text the lesson measures on: 1024 sequences, so that the first half's
// accuracy moves by sampling noise well under a point (at 256 it moves by two).
constexpr std::size_t induction_lesson_batch = 1024;
constexpr std::uint64_t induction_lesson_seed = 0;
constexpr std::size_t induction_most_sequences = 4096;  // (4096, T, V) logits at once: 2 MB for the lesson's model

// The lesson's text: `batch` sequences of `half` ids drawn by randint(0, vocab)
// from a generator seeded `seed`, each followed by the same ids again.
// (batch, 2·half), row after row.
std::vector<std::int64_t> induction_lesson_text(std::size_t vocab, std::size_t half, std::size_t batch,
                                                std::uint64_t seed);

struct halves_accuracy {
  double first = 0;     // argmax right on targets 1 … half−1 (a random token: guessable only by chance)
  double repeated = 0;  // argmax right on targets half+1 … 2·half−1 (each a copy of one seen earlier)
  double chance = 0;    // 1 / vocab
};

// The model's argmax next-token accuracy on both halves of `text` (batch rows
// of length 2·half), with the listed (layer, head) pairs zero-ablated as
// lens-v1's ablate does (weights · v replaced by zeros). Throws one line for
// a head the model lacks, a text the model cannot read, or a BERT.
halves_accuracy induction_accuracy(const loaded_model& model, const std::vector<std::int64_t>& text, std::size_t batch,
                                   const std::vector<std::pair<std::size_t, std::size_t>>& ablated = {});

}  // namespace attention
