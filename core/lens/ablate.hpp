// lens-v1.md section 2: the model run as usual, and again with some heads'
// outputs (weights · v, before the output projection) replaced by zeros or
// by their mean over the positions; the next-token logits, the ten most
// probable tokens and the loss, before and after. A grouped-query head is
// that query head alone; BERT's masked-LM head reads `position`, its loss null.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "lens/lens.hpp"
#include "models/loaded_model.hpp"

namespace attention {

// The heads as the request lists them: each one a head of the model, at least one.
void check_ablated_heads(const loaded_model& model, const lens_request& request, const std::string& prefix);

// {"version", "lens": "ablate", "tokens", "heads": [[l, h], …], "mode": "zero" | "mean",
//  "before": {"logits": {"shape": [V], "data"}, "top": [[id, p] ×10], "loss"}, "after": {…}}
nlohmann::ordered_json ablate_lens(const loaded_model& model, const lens_request& request, const std::string& prefix);

}  // namespace attention
