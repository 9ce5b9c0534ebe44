// Direct logit attribution (lens-v1.md section 4): the final residual
// stream at one position split into what wrote it (the embedding, each
// head through its slice of the output projection, each attention output's
// bias, each MLP), each part's share of one token's logit through the final
// norm with its scale frozen at the full run's, plus a constant; the parts
// sum to the logit.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/loaded_model.hpp"

namespace attention {

// {"version": 1, "lens": "attribution", "tokens", "position", "token", "logit", "sum",
//  "parts": [{"name", "value"}, ...]}: names `embed`, `L.H`, `L.attn_bias`, `L.mlp`, `constant`.
// position: default the last; token: default the model's argmax there. Throws one
// line naming --position or --token when outside the tokens or the vocabulary, and for BERT.
nlohmann::ordered_json attribution(const loaded_model& model, const std::vector<std::int64_t>& tokens,
                                   std::optional<std::int64_t> position = std::nullopt,
                                   std::optional<std::int64_t> token = std::nullopt);

}  // namespace attention
