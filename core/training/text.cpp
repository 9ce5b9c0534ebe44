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

std::string utf8_of(char32_t c) {
  std::string out;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
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

std::vector<char32_t> code_points(std::string_view utf8, const std::string& place) {
  std::vector<char32_t> out;
  out.reserve(utf8.size());
  std::size_t i = 0;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(utf8[k]); };
  while (i < utf8.size()) {
    const unsigned char b = byte(i);
    std::size_t n = 0;
    char32_t c = 0, least = 0;
    if (b < 0x80) { n = 1; c = b; }
    else if ((b & 0xE0) == 0xC0) { n = 2; c = b & 0x1F; least = 0x80; }
    else if ((b & 0xF0) == 0xE0) { n = 3; c = b & 0x0F; least = 0x800; }
    else if ((b & 0xF8) == 0xF0) { n = 4; c = b & 0x07; least = 0x10000; }
    bool valid = n > 0 && i + n <= utf8.size();
    for (std::size_t k = 1; valid && k < n; ++k) {
      valid = (byte(i + k) & 0xC0) == 0x80;
      c = (c << 6) | (byte(i + k) & 0x3F);
    }
    valid = valid && c >= least && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
    ATTENTION_CHECK(valid, place, ": not valid UTF-8 (byte ", i, ")");
    out.push_back(c);
    i += n;
  }
  return out;
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
