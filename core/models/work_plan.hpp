// The whole work of one request on a loaded model, from its header (config
// and spec) and the request's arguments, before the forward: the bytes it
// holds at once and the multiply-adds it does, against limits::models'
// request_bytes and request_multiply_adds (and the attention and logits
// limits). Every path that runs a model goes through check_work: the CLI's
// model, head and lens, the core's generate, the page's runs through wasm.
//
// Letters: L layers, H query heads, KV key/value heads, hs the head size,
// d the stream, I the MLP's width, V the vocabulary, T the tokens.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "models/model_plan.hpp"
#include "transformer/model.hpp"

namespace attention {

// What a request runs. run: one forward keeping the attention, the logits a
// block at a time (CLI model and head, the page's run and its head scores).
enum class work_kind { run, scores, ablate, logit_lens, attribution, generate };

const char* work_name(work_kind kind);  // "a run", "the scores lens", …

struct work_request {
  work_kind kind = work_kind::run;
  std::size_t tokens = 0;     // T: the sequence, or generate's prompt
  std::size_t generated = 0;  // generate: the tokens it adds
};

// Bytes held at once, by what they scale with; total() the peak.
struct work_bytes {
  std::uint64_t stream = 0;     // T·d: the residual stream, its norms, the heads' q, k, v and outs
  std::uint64_t mlp = 0;        // T·I: the MLP's hidden, up and active
  std::uint64_t logits = 0;     // T·V: the logits' block, a lens's cells
  std::uint64_t attention = 0;  // L·H·T²: the heads' weights and scores (and a cache's keys and values)
  std::uint64_t total() const;
};

struct work_plan {
  work_bytes bytes;                 // the most the request holds at once
  std::uint64_t multiply_adds = 0;  // the whole request
  std::uint64_t per_token = 0;      // the weights one token's forward reads (multiply-adds)
};

// The plan; saturating, never wrapping, for any sizes.
work_plan plan_work(const model_config& config, const model_spec& spec, const work_request& request);

// Refuses a request beyond the limits, one line naming `place` (the tokens:
// "--tokens", "tokens") or, for a generation the prompt alone fits,
// `count_place`. Returns the plan.
work_plan check_work(const model_config& config, const model_spec& spec, const work_request& request,
                     const std::string& place, const std::string& count_place = "count");

}  // namespace attention
