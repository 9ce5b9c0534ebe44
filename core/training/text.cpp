#include "training/text.hpp"

#include <algorithm>
#include <set>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "random/sampling.hpp"

namespace attention {

std::int64_t text_corpus::id_of(char32_t c) const {
  const auto it = std::lower_bound(chars.begin(), chars.end(), c);
  return it != chars.end() && *it == c ? static_cast<std::int64_t>(it - chars.begin()) : -1;
}

std::string text_corpus::decode(const std::vector<std::int64_t>& ids) const {
  std::string out;
  for (std::int64_t id : ids) out += utf8_of(chars.at(static_cast<std::size_t>(id)));
  return out;
}

std::vector<std::int64_t> text_corpus::encode(const std::vector<char32_t>& text, const std::string& place) const {
  std::vector<std::int64_t> ids;
  ids.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    ids.push_back(id_of(text[i]));
    ATTENTION_CHECK(ids.back() >= 0, place, ": character ", i, " (", quote(utf8_of(text[i])),
                    ") is not in the corpus's vocabulary");
  }
  return ids;
}

text_corpus make_corpus(const std::vector<char32_t>& text, double split) {
  text_corpus corpus;
  const std::set<char32_t> distinct(text.begin(), text.end());
  corpus.chars.assign(distinct.begin(), distinct.end());
  std::vector<std::int64_t> ids;
  ids.reserve(text.size());
  for (char32_t c : text) ids.push_back(corpus.id_of(c));
  // int(split · len(ids)) in Python: a double product, truncated
  const auto n = static_cast<std::size_t>(split * static_cast<double>(ids.size()));
  corpus.train.assign(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n));
  corpus.val.assign(ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end());
  corpus.first = ids.empty() ? 0 : ids[0];
  return corpus;
}

void draw_text(generator& gen, const std::vector<std::int64_t>& split, std::size_t length, std::size_t batch,
               std::vector<std::int64_t>& x, std::vector<std::int64_t>& y) {
  const std::vector<std::int64_t> ix =
      randint_ids(gen, 0, static_cast<std::int64_t>(split.size() - length), batch);
  for (std::size_t b = 0; b < batch; ++b) {
    const auto i = static_cast<std::size_t>(ix[b]);
    for (std::size_t t = 0; t < length; ++t) {
      x[b * length + t] = split[i + t];
      y[b * length + t] = split[i + t + 1];
    }
  }
}

}  // namespace attention
