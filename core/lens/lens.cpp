#include "lens/lens.hpp"

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "lens/ablate.hpp"
#include "lens/attribution.hpp"
#include "lens/logit_lens.hpp"
#include "lens/scores.hpp"
#include "models/model_run.hpp"

namespace attention {

bool is_encoder(const loaded_model& model) { return !model.spec.causal(); }

std::string argument_name(const std::string& prefix, const char* name) { return prefix + name; }

void check_lens_tokens(const loaded_model& model, const std::vector<std::int64_t>& tokens, const std::string& prefix,
                       work_kind kind) {
  check_tokens(model, tokens, argument_name(prefix, "tokens"), kind);
}

work_kind lens_work(const std::string& what) {
  if (what == "scores") return work_kind::scores;
  if (what == "ablate") return work_kind::ablate;
  if (what == "logit-lens") return work_kind::logit_lens;
  return work_kind::attribution;
}

std::size_t lens_position(const std::optional<std::size_t>& position, std::size_t tokens, const std::string& prefix) {
  if (!position) return tokens - 1;
  ATTENTION_CHECK(*position < tokens, argument_name(prefix, "position"), ": ", *position, " is outside [0, ", tokens,
                  ")");
  return *position;
}

nlohmann::ordered_json run_lens(const loaded_model& model, const lens_request& request, const std::string& prefix) {
  const std::string& what = request.what;
  const bool known = what == "scores" || what == "ablate" || what == "logit-lens" || what == "attribution";
  ATTENTION_CHECK(known, argument_name(prefix, "what"), ": ", quote(what),
                  " is not a lens (scores, ablate, logit-lens, attribution)");
  check_lens_tokens(model, request.tokens, prefix, lens_work(what));
  // a position past the tokens, a token past the vocabulary: refused whichever lens reads them
  if (request.position) lens_position(request.position, request.tokens.size(), prefix);
  if (const auto& t = request.token)
    ATTENTION_CHECK(*t >= 0 && static_cast<std::uint64_t>(*t) < model.config.vocab, argument_name(prefix, "token"),
                    ": ", *t, " is outside [0, ", model.config.vocab, ")");
  if (what == "scores") return head_scores_lens(model, request.tokens);
  if (what == "ablate") return ablate_lens(model, request, prefix);
  ATTENTION_CHECK(!is_encoder(model), argument_name(prefix, "what"), ": ", what,
                  " reads a decoder's next-token logits; BERT supports scores and ablate (lens-v1.md)");
  if (what == "logit-lens") return logit_lens(model, request.tokens);
  std::optional<std::int64_t> position;
  if (request.position) position = static_cast<std::int64_t>(*request.position);
  return attribution(model, request.tokens, position, request.token);
}

}  // namespace attention
