// The lenses of lens-v1.md on a loaded model: what each head does (head
// scores), what the model loses without some heads (ablation), what each
// layer would predict (the logit lens) and which part wrote a logit (direct
// logit attribution). One request, one JSON document, exactly lens-v1's
// keys in its order, for the CLI (`attention-cli lens`) and the page (wasm's
// `lens`) alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/loaded_model.hpp"
#include "models/work_plan.hpp"

namespace attention {

struct lens_request {
  std::string what;                                         // "scores", "ablate", "logit-lens", "attribution"
  std::vector<std::int64_t> tokens;                         // (T) ids below V
  std::vector<std::pair<std::size_t, std::size_t>> heads;   // ablate: (layer, head) pairs, in the order given
  bool mean = false;                                        // ablate: the heads' mean over positions, else zeros
  std::optional<std::size_t> position;                      // attribution; BERT's ablate: default T − 1
  std::optional<std::int64_t> token;                        // attribution: default the model's argmax there
};

// Which family a loaded model is, as its block says (models-v2.md): BERT has
// no causal mask; the Llama family normalises with RMSNorm.
bool is_encoder(const loaded_model& model);

// The lens `request.what` asks for, as lens-v1's JSON. Every argument is
// checked before any forward, one line naming it with `prefix` before its
// name ("--" for the command line: "--heads: 3.0 is not a head of this
// model"). Throws attention::error.
nlohmann::ordered_json run_lens(const loaded_model& model, const lens_request& request, const std::string& prefix = "");

// `prefix + name`, what a message calls an argument.
std::string argument_name(const std::string& prefix, const char* name);

// The request's tokens checked for the model (1 to its context length, each below V, within the request limits).
void check_lens_tokens(const loaded_model& model, const std::vector<std::int64_t>& tokens, const std::string& prefix,
                       work_kind kind = work_kind::run);

// The work a lens is: "scores", "ablate", "logit-lens", "attribution".
work_kind lens_work(const std::string& what);

// The position a lens reads: default T − 1, refused outside [0, T).
std::size_t lens_position(const std::optional<std::size_t>& position, std::size_t tokens, const std::string& prefix);

}  // namespace attention
