// A run's guesses at a tempering (the core's tempered_guess, (T, topK)) as
// the typed arrays the Model view copies out: temperedIds(),
// temperedProbabilities(), ownProbabilities(), keptFlags(),
// drawnProbabilities() and remainingCounts() (T).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/tempered_row.hpp"

namespace glue {

struct tempered_arrays {
  std::vector<std::int32_t> ids;
  std::vector<float> probabilities;  // at the temperature
  std::vector<float> own;            // at temperature 1
  std::vector<std::int32_t> kept;    // 1: Generate may draw it
  std::vector<float> drawn;          // what Generate draws it with
  std::vector<std::int32_t> remaining;  // (T): how many tokens are kept after each position

  // guesses: (T, top_k) of a run of T positions
  void keep(const std::vector<attention::tempered_guess>& guesses, std::size_t T, std::size_t top_k) {
    ids.resize(guesses.size());
    probabilities.resize(guesses.size());
    own.resize(guesses.size());
    kept.resize(guesses.size());
    drawn.resize(guesses.size());
    remaining.resize(T);
    for (std::size_t i = 0; i < guesses.size(); ++i) {
      ids[i] = static_cast<std::int32_t>(guesses[i].id);
      probabilities[i] = guesses[i].probability;
      own[i] = guesses[i].own;
      kept[i] = guesses[i].kept ? 1 : 0;
      drawn[i] = guesses[i].drawn;
      remaining[i / top_k] = static_cast<std::int32_t>(guesses[i].remaining);
    }
  }

  // They belong to the run they were read from: freed with it.
  void drop() {
    std::vector<std::int32_t>().swap(ids);
    std::vector<float>().swap(probabilities);
    std::vector<float>().swap(own);
    std::vector<std::int32_t>().swap(kept);
    std::vector<float>().swap(drawn);
    std::vector<std::int32_t>().swap(remaining);
  }
};

}  // namespace glue
