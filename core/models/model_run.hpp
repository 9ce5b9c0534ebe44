// A loaded GPT on one token sequence: the one forward() of the training
// room, keeping each head's attention and what each layer's heads read, and
// the next-token guesses after every position (the page shows them on hover),
// the last position's logits and the loss (gpt-v1.md's model trace).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/loaded_model.hpp"
#include "models/tempered_row.hpp"
#include "models/work_plan.hpp"
#include "tensor/top.hpp"
#include "transformer/head_scores.hpp"

namespace attention {

struct model_run {
  std::vector<std::int64_t> tokens;    // (T)
  forward_pass pass;                   // kept::attention: each head's weights (1, T, T); each layer's attended input;
                                       // what the unembedding reads (1, T, d), not the (1, T, V) logits
  std::vector<float> last_logits;      // (V): after the last token
  std::size_t top_k = 0;
  std::vector<token_probability> top;  // (T, top_k): the most probable next tokens after each position
  std::optional<float> loss;           // mean next-token cross-entropy over positions 0 … T−2, when T ≥ 2
  std::vector<tempered_guess> tempered;  // (T, top_k): the guesses at the run's tempering, when it had one

  std::size_t length() const { return tokens.size(); }
  // head h of layer l: (T, T), row i the weights of position i
  const float* attention(std::size_t layer, std::size_t head) const {
    return pass.layers[layer].heads[head].weights.data();
  }
};

// Token ids for the model: 1 to Tmax of them, each in [0, V), and the whole
// work `kind` asks of the model on them within the request limits
// (models/work_plan.hpp: the attention, the logits, the bytes held at once,
// the multiply-adds). `place` names them in messages (--tokens, tokens).
void check_tokens(const loaded_model& model, const std::vector<std::int64_t>& tokens, const std::string& place,
                  work_kind kind = work_kind::run);
// A GPT file's config alone (its spec is spec_of's): a run's.
void check_tokens(const model_config& config, const std::vector<std::int64_t>& tokens, const std::string& place);
// The ids alone: 1 to Tmax of them, each in [0, V).
void check_token_ids(const model_config& config, const std::vector<std::int64_t>& tokens, const std::string& place);

// The logits after positions [first, first + n) of `run`: (1, n, V), made
// again from what the unembedding read (a block at a time, never (T, V) whole).
tensor3 logits_of(const loaded_model& model, const model_run& run, std::size_t first, std::size_t n);

// Runs the model on checked tokens; top_k ≤ V guesses kept per position.
// With a tempering (checked first, as tempered_guesses checks it), the
// guesses at it fill `tempered` from the same blocks of logits: the bars
// without making the logits twice.
model_run run_model(const loaded_model& model, const std::vector<std::int64_t>& tokens, std::size_t top_k = 10,
                    const std::optional<tempering>& at = std::nullopt);

// Every head's previous-token and induction scores on the run's tokens
// (transformer/head_scores.hpp), layer by layer, head by head: what the Model
// view names as the head to look at first.
std::vector<head_score> run_head_scores(const model_run& run);

}  // namespace attention
