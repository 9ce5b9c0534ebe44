// The logit lens (lens-v1.md section 3): the residual stream after the
// embedding (row 0) and after each block (rows 1..L), each read as if it
// were the last, through the final norm and the unembedding. Per row and
// position the five most probable tokens and the probability of the
// model's own final choice there (the last row's argmax).
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/loaded_model.hpp"

namespace attention {

// {"version": 1, "lens": "logit-lens", "tokens", "final": [ids per position],
//  "layers": [[{"top": [[id, p] ×5], "final": p} per position] ×(L + 1)]}.
// Throws one line for BERT, or for tokens the model cannot read.
nlohmann::ordered_json logit_lens(const loaded_model& model, const std::vector<std::int64_t>& tokens);

}  // namespace attention
