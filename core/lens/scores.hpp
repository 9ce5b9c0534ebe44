// lens-v1.md section 1, TransformerLens's head detectors: how much each
// head attends to the previous token, the first token, earlier copies of
// its own token (duplicate-token), and, on a random sequence repeated once,
// to the token after the earlier copy (induction). Named apart from the
// training view's induction score (transformer/head_scores.hpp), which is
// measured on the training text itself.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/loaded_model.hpp"

namespace attention {

// The induction input: n = min(50, ⌊context / 2⌋) ids from torch.randint(V, (n,))
// under a generator seeded 0, then the same n again (2n ids).
std::vector<std::int64_t> induction_tokens(const loaded_model& model);

// {"version", "lens": "scores", "tokens", "induction_tokens", "heads": [{"layer", "head",
// "previous_token", "first_token", "duplicate_token", "induction"}, …]}, layer by layer, head by
// head; null where section 1 says. BERT's rows are full (no mask), the formulas the same.
nlohmann::ordered_json head_scores_lens(const loaded_model& model, const std::vector<std::int64_t>& tokens);

}  // namespace attention
