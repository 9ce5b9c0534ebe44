#include "models/vocabulary.hpp"

#include <map>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "errors/utf8.hpp"

namespace attention {

std::vector<std::int64_t> encode_text(const model_config& c, std::string_view text, const std::string& place) {
  ATTENTION_CHECK(c.tokenizer == tokenizer_kind::characters, place, ": the model has no character vocabulary (",
                  c.tokenizer == tokenizer_kind::gpt2 ? "it reads GPT-2's BPE tokens: give their ids" : "give token ids",
                  ")");
  // {c: i for i, c in enumerate(vocab)}: a string given twice means its last id
  std::map<std::string, std::int64_t> ids;
  for (std::size_t i = 0; i < c.vocabulary.size(); ++i) ids[c.vocabulary[i]] = static_cast<std::int64_t>(i);
  const std::vector<char32_t> chars = code_points(text, place);
  ATTENTION_CHECK(!chars.empty(), place, ": empty");
  std::vector<std::int64_t> out;
  out.reserve(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) {
    const std::string ch = utf8_of(chars[i]);
    const auto found = ids.find(ch);
    ATTENTION_CHECK(found != ids.end(), place, ": character ", quote(ch), " at position ", i,
                    " is not in the vocabulary");
    out.push_back(found->second);
  }
  return out;
}

std::string decode_ids(const model_config& c, const std::vector<std::int64_t>& ids) {
  std::string text;
  for (std::int64_t id : ids) {
    ATTENTION_CHECK(id >= 0 && static_cast<std::uint64_t>(id) < c.vocab, "ids: ", id, " is outside [0, ", c.vocab, ")");
    ATTENTION_CHECK(c.tokenizer == tokenizer_kind::characters, "ids: the model has no character vocabulary");
    text += c.vocabulary[static_cast<std::size_t>(id)];
  }
  return text;
}

}  // namespace attention
