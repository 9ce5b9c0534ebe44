// A lens request from the page, as JSON text (lens-v1.md; core/lens/README.md):
//   {"what": "scores" | "ablate" | "logit-lens" | "attribution",
//    "tokens": [ids…], "heads": [[layer, head], …], "mode": "zero" | "mean",
//    "position": P, "token": t}
// Only "what" and "tokens" are required; every field is checked for its kind
// here and against the model by the core, each message naming the field.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "lens/lens.hpp"

namespace glue {

// A whole number from JSON, as int64 (a number past it named, never wrapped).
inline std::int64_t lens_integer(const nlohmann::json& value, const std::string& place) {
  ATTENTION_CHECK(value.is_number_integer(), place, ": expected an integer");
  ATTENTION_CHECK(!value.is_number_unsigned() || value.get<std::uint64_t>() <= INT64_MAX, place, ": ",
                  value.get<std::uint64_t>(), " is too large");
  return value.get<std::int64_t>();
}

// An index from JSON: a whole number ≥ 0.
inline std::size_t lens_index(const nlohmann::json& value, const std::string& place) {
  const std::int64_t n = lens_integer(value, place);
  ATTENTION_CHECK(n >= 0, place, ": ", n, " is negative");
  return static_cast<std::size_t>(n);
}

inline attention::lens_request lens_request_of(const std::string& text) {
  const nlohmann::json r = nlohmann::json::parse(text, nullptr, false);
  ATTENTION_CHECK(r.is_object(), "lens: expected a JSON object {\"what\", \"tokens\", …}");
  for (auto it = r.begin(); it != r.end(); ++it) {
    const std::string& key = it.key();
    ATTENTION_CHECK(key == "what" || key == "tokens" || key == "heads" || key == "mode" || key == "position" ||
                        key == "token",
                    "lens: unknown field ", attention::quote(key));
  }
  attention::lens_request request;
  ATTENTION_CHECK(r.contains("what") && r["what"].is_string(), "what: expected scores, ablate, logit-lens or attribution");
  request.what = r["what"].get<std::string>();
  ATTENTION_CHECK(r.contains("tokens") && r["tokens"].is_array(), "tokens: expected a list of token ids");
  for (std::size_t t = 0; t < r["tokens"].size(); ++t)
    request.tokens.push_back(lens_integer(r["tokens"][t], "tokens[" + std::to_string(t) + "]"));
  if (r.contains("heads")) {
    const nlohmann::json& heads = r["heads"];
    ATTENTION_CHECK(heads.is_array(), "heads: expected a list of [layer, head] pairs");
    for (std::size_t i = 0; i < heads.size(); ++i) {
      const std::string place = "heads[" + std::to_string(i) + "]";
      ATTENTION_CHECK(heads[i].is_array() && heads[i].size() == 2, place, ": expected [layer, head]");
      request.heads.emplace_back(lens_index(heads[i][0], place + "[0]"), lens_index(heads[i][1], place + "[1]"));
    }
  }
  if (r.contains("mode")) {
    const nlohmann::json& mode = r["mode"];
    const std::string shown = mode.is_string() ? mode.get<std::string>() : mode.dump();
    ATTENTION_CHECK(mode == "zero" || mode == "mean", "mode: ", attention::quote(shown), " is not zero or mean");
    request.mean = mode == "mean";
  }
  if (r.contains("position") && !r["position"].is_null()) request.position = lens_index(r["position"], "position");
  if (r.contains("token") && !r["token"].is_null()) request.token = lens_integer(r["token"], "token");
  return request;
}

}  // namespace glue
