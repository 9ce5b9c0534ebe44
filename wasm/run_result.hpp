// A model's run as the page reads it, in one answer: one JS object holding
// every typed array of the run (each head's weights, the guesses after each
// position, the last logits, the guesses at the run's tempering), or of its
// guesses at another tempering. Each answer lists its own ArrayBuffers in
// `transfer`: the worker moves exactly those to the page instead of copying
// them (web/engine/model-worker.js). An object inside the answer that has
// typed arrays of its own lists theirs too (a run's `tempered`), so that it
// is a whole answer when the page keeps it apart.
#pragma once

#include <emscripten/val.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/model_run.hpp"
#include "models/tempered_row.hpp"

namespace glue {

// An answer being built: its typed arrays are copies out of wasm memory,
// each one's buffer listed in `transfer` as it is made.
class js_answer {
 public:
  // A copy of n floats as a new Float32Array.
  emscripten::val floats(const float* data, std::size_t n) {
    return own(emscripten::val::global("Float32Array").new_(emscripten::typed_memory_view(n, data)));
  }
  emscripten::val ints(const std::vector<std::int32_t>& numbers) {
    return own(emscripten::val::global("Int32Array").new_(emscripten::typed_memory_view(numbers.size(), numbers.data())));
  }
  // A Float32Array of n zeros, filled by set(…) in place.
  emscripten::val zeros(std::size_t n) {
    return own(emscripten::val::global("Float32Array").new_(static_cast<double>(n)));
  }
  // The buffers another answer listed, listed here too (it is part of this one).
  void adopt(const emscripten::val& part) { transfer_ = transfer_.call<emscripten::val>("concat", part["transfer"]); }
  // `object` with its `transfer` list: the answer as it leaves.
  emscripten::val done(emscripten::val object) const {
    object.set("transfer", transfer_);
    return object;
  }

 private:
  emscripten::val own(emscripten::val array) {
    transfer_.call<void>("push", array["buffer"]);
    return array;
  }
  emscripten::val transfer_ = emscripten::val::array();
};

// {"error": message}: a refusal as an object answer.
inline emscripten::val error_object(const std::string& message) {
  emscripten::val object = emscripten::val::object();
  object.set("error", message);
  return object;
}

// The guesses at a tempering ((T, top_k) of the core's tempered_guess) as
// {temperature, topK, topP, k, ids, probabilities, own, kept, drawn,
// remaining}: after each position its k tokens most probable at the
// temperature (ids), their probability there, their own at temperature 1,
// kept (1: top-k and top-p keep it, Generate may draw it), drawn (what
// Generate draws it with), (T, k) each; remaining (T): how many tokens are
// kept after each position. topK and topP are the warpers (0 and 1: off);
// `transfer` lists the six arrays' buffers.
inline emscripten::val tempered_object(const std::vector<attention::tempered_guess>& guesses, std::size_t T,
                                       std::size_t k, const attention::tempering& at) {
  js_answer answer;
  const std::size_t n = guesses.size();
  std::vector<std::int32_t> ids(n), kept(n), remaining(T);
  std::vector<float> probabilities(n), own(n), drawn(n);
  for (std::size_t i = 0; i < n; ++i) {
    ids[i] = static_cast<std::int32_t>(guesses[i].id);
    probabilities[i] = guesses[i].probability;
    own[i] = guesses[i].own;
    kept[i] = guesses[i].kept ? 1 : 0;
    drawn[i] = guesses[i].drawn;
    remaining[i / k] = static_cast<std::int32_t>(guesses[i].remaining);
  }
  emscripten::val object = emscripten::val::object();
  object.set("temperature", at.temperature);
  object.set("topK", static_cast<double>(at.warp.top_k));
  object.set("topP", at.warp.top_p);
  object.set("k", static_cast<double>(k));
  object.set("ids", answer.ints(ids));
  object.set("probabilities", answer.floats(probabilities.data(), n));
  object.set("own", answer.floats(own.data(), n));
  object.set("kept", answer.ints(kept));
  object.set("drawn", answer.floats(drawn.data(), n));
  object.set("remaining", answer.ints(remaining));
  return answer.done(object);
}

// [id, p] as a JS array.
inline emscripten::val guess_pair(const attention::token_probability& guess) {
  emscripten::val pair = emscripten::val::array();
  pair.call<void>("push", static_cast<double>(guess.id));
  pair.call<void>("push", static_cast<double>(guess.probability));
  return pair;
}

// The run's guesses after `position` (BERT's masked-LM head at a [MASK], or
// a decoder's next token) as {position, top: [[id, p] × 10], logits (V)}
// with `transfer`: the first ten of the run's top-k there, and the logits
// the head gives there.
inline emscripten::val guesses_object(const attention::model_run& run, std::size_t position, const float* logits,
                                      std::size_t vocab) {
  js_answer answer;
  emscripten::val top = emscripten::val::array();
  for (std::size_t n = 0; n < std::min<std::size_t>(10, run.top_k); ++n)
    top.call<void>("push", guess_pair(run.top[position * run.top_k + n]));
  emscripten::val object = emscripten::val::object();
  object.set("position", static_cast<double>(position));
  object.set("top", top);
  object.set("logits", answer.floats(logits, vocab));
  return answer.done(object);
}

// Every head's scores on a run's tokens (the core's run_head_scores), layer
// by layer, head by head: [{layer, head, previous, induction}], induction
// null when no token repeats. What the Model view names as the head to look
// at first, so that it needs no call after the run.
inline emscripten::val scores_list(const std::vector<attention::head_score>& scores, std::size_t heads) {
  emscripten::val list = emscripten::val::array();
  for (std::size_t i = 0; i < scores.size(); ++i) {
    emscripten::val one = emscripten::val::object();
    one.set("layer", static_cast<double>(i / heads));
    one.set("head", static_cast<double>(i % heads));
    one.set("previous", static_cast<double>(scores[i].previous));
    one.set("induction", scores[i].induction ? emscripten::val(static_cast<double>(*scores[i].induction))
                                             : emscripten::val::null());
    list.call<void>("push", one);
  }
  return list;
}

// A run of `layers` × `heads` heads as {tokens, attention: {shape: [L, H,
// T, T], data}, top: {k, ids, probabilities} ((T, k): the most probable next
// tokens after each position), tempered: tempered_object's at `at`, last:
// {logits (V), top: [[id, p] × 10] after the last position}, loss, scores:
// scores_list's}; tempered and last null when the model has no logits (a
// BERT without its head), loss null unless `loss` says it has one.
inline emscripten::val run_object(const attention::model_run& run, std::size_t layers, std::size_t heads,
                                  const attention::tempering& at, bool logits, bool loss) {
  js_answer answer;
  const std::size_t T = run.length(), k = run.top_k;
  emscripten::val object = emscripten::val::object();
  emscripten::val tokens = emscripten::val::array();
  for (const std::int64_t id : run.tokens) tokens.call<void>("push", static_cast<double>(id));
  object.set("tokens", tokens);

  emscripten::val data = answer.zeros(layers * heads * T * T);
  for (std::size_t l = 0; l < layers; ++l)
    for (std::size_t h = 0; h < heads; ++h)
      data.call<void>("set", emscripten::val(emscripten::typed_memory_view(T * T, run.attention(l, h))),
                      static_cast<double>((l * heads + h) * T * T));
  emscripten::val shape = emscripten::val::array();
  for (const std::size_t n : {layers, heads, T, T}) shape.call<void>("push", static_cast<double>(n));
  emscripten::val attention = emscripten::val::object();
  attention.set("shape", shape);
  attention.set("data", data);
  object.set("attention", attention);

  std::vector<std::int32_t> ids(run.top.size());
  std::vector<float> probabilities(run.top.size());
  for (std::size_t i = 0; i < run.top.size(); ++i) {
    ids[i] = static_cast<std::int32_t>(run.top[i].id);
    probabilities[i] = run.top[i].probability;
  }
  emscripten::val top = emscripten::val::object();
  top.set("k", static_cast<double>(k));
  top.set("ids", answer.ints(ids));
  top.set("probabilities", answer.floats(probabilities.data(), probabilities.size()));
  object.set("top", top);

  object.set("tempered", emscripten::val::null());
  if (logits) {
    emscripten::val tempered = tempered_object(run.tempered, T, k, at);
    answer.adopt(tempered);
    object.set("tempered", tempered);
    emscripten::val last = emscripten::val::object();
    emscripten::val guesses = emscripten::val::array();
    for (std::size_t n = 0; T > 0 && n < std::min<std::size_t>(10, k) && (T - 1) * k + n < run.top.size(); ++n)
      guesses.call<void>("push", guess_pair(run.top[(T - 1) * k + n]));
    last.set("logits", answer.floats(run.last_logits.data(), run.last_logits.size()));
    last.set("top", guesses);
    object.set("last", last);
  } else {
    object.set("last", emscripten::val::null());
  }
  object.set("loss", loss && run.loss ? emscripten::val(static_cast<double>(*run.loss)) : emscripten::val::null());
  object.set("scores", scores_list(attention::run_head_scores(run), heads));
  return answer.done(object);
}

}  // namespace glue
