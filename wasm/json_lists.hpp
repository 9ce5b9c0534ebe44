// The JSON lists the models' calls take as text: token ids (run, decode,
// generate) and a head's labels (headScenario). Each is checked for its kind
// here, each message naming the list and the place in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "text.hpp"
#include "errors/check.hpp"

namespace glue {

// Ids from JSON, compared in 64 bits: one beyond int64 is named, never
// wrapped (as outside [0, vocab), the model's vocabulary).
inline std::vector<std::int64_t> ids_of(const std::u16string& tokens, std::size_t vocab) {
  const nlohmann::json list = nlohmann::json::parse(utf8_of(tokens, "tokens"), nullptr, false);
  ATTENTION_CHECK(list.is_array(), "tokens: expected a list of token ids");
  std::vector<std::int64_t> ids;
  for (std::size_t t = 0; t < list.size(); ++t) {
    const nlohmann::json& id = list[t];
    ATTENTION_CHECK(id.is_number_integer(), "tokens[", t, "]: expected an integer token id");
    ATTENTION_CHECK(!id.is_number_unsigned() || id.get<std::uint64_t>() <= INT64_MAX, "tokens[", t, "]: ",
                    id.get<std::uint64_t>(), " is outside [0, ", vocab, ")");
    ids.push_back(id.get<std::int64_t>());
  }
  return ids;
}

// One label per token from a JSON list of strings; "" gives none.
inline std::vector<std::string> labels_of(const std::u16string& labels) {
  std::vector<std::string> list;
  if (labels.empty()) return list;
  const nlohmann::json parsed = nlohmann::json::parse(utf8_of(labels, "labels"), nullptr, false);
  ATTENTION_CHECK(parsed.is_array(), "labels: expected a list of strings");
  for (const nlohmann::json& label : parsed) {
    ATTENTION_CHECK(label.is_string(), "labels: expected a list of strings");
    list.push_back(label.get<std::string>());
  }
  return list;
}

}  // namespace glue
