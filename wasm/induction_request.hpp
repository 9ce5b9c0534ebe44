// The induction lesson's request from the page, as JSON text
// (lessons/induction.hpp): {"heads": [[layer, head], …], "seed",
// "sequences", "half"}, each optional: no head ablated, and the lesson's
// text (seed 0, 1024 sequences of 8 random ids twice). Every field is
// checked for its kind here, each message naming the field; the bounds
// that depend on the model are checked by Model.inductionLesson.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lens_request.hpp"
#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "lessons/induction.hpp"

namespace glue {

struct induction_request {
  std::vector<std::pair<std::size_t, std::size_t>> heads;  // (layer, head), ablated
  std::size_t seed = attention::induction_lesson_seed;
  std::size_t sequences = attention::induction_lesson_batch;
  std::size_t half = 8;
};

inline induction_request induction_request_of(const std::string& text) {
  const nlohmann::json r = nlohmann::json::parse(text, nullptr, false);
  ATTENTION_CHECK(r.is_object(), "induction: expected a JSON object {\"heads\", \"seed\", \"sequences\", \"half\"}");
  for (auto it = r.begin(); it != r.end(); ++it)
    ATTENTION_CHECK(it.key() == "heads" || it.key() == "seed" || it.key() == "sequences" || it.key() == "half",
                    "induction: unknown field ", attention::quote(it.key()));
  induction_request request;
  if (r.contains("heads")) {
    ATTENTION_CHECK(r["heads"].is_array(), "heads: expected a list of [layer, head] pairs");
    for (std::size_t i = 0; i < r["heads"].size(); ++i) {
      const nlohmann::json& h = r["heads"][i];
      const std::string place = "heads[" + std::to_string(i) + "]";
      ATTENTION_CHECK(h.is_array() && h.size() == 2, place, ": expected [layer, head]");
      request.heads.emplace_back(lens_index(h[0], place + "[0]"), lens_index(h[1], place + "[1]"));
    }
  }
  if (r.contains("seed")) request.seed = lens_index(r["seed"], "seed");
  if (r.contains("sequences")) request.sequences = lens_index(r["sequences"], "sequences");
  if (r.contains("half")) request.half = lens_index(r["half"], "half");
  return request;
}

}  // namespace glue
