// The text task of gpt-v1.md: a character-level language model on a corpus.
// The corpus is read as UTF-8 and split into code points; the vocabulary is
// their sorted set (nanoGPT's shakespeare_char); ids index into it. Batches
// are Karpathy's get_batch, drawn from the PyTorch-exact generator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "errors/utf8.hpp"

#include "random/generator.hpp"

namespace attention {

struct text_corpus {
  std::vector<char32_t> chars;          // the vocabulary: sorted distinct code points
  std::vector<std::int64_t> train, val; // ids: the first int(split · n) code points, and the rest
  std::int64_t first = 0;               // the corpus's first character: the default prompt

  std::size_t vocab() const { return chars.size(); }
  // The id of a code point, or -1 when it is not in the vocabulary.
  std::int64_t id_of(char32_t c) const;
  // UTF-8 text of ids.
  std::string decode(const std::vector<std::int64_t>& ids) const;
  // Ids of characters; throws naming `place` and the first character that is
  // not in the vocabulary ("sample.prompt: character 3 ("é") is not in …").
  std::vector<std::int64_t> encode(const std::vector<char32_t>& text, const std::string& place) const;
};

// The corpus's vocabulary and its two splits: n = int(split · length),
// computed in double as Python does.
text_corpus make_corpus(const std::vector<char32_t>& text, double split);

// x = stack(s[i : i+T]), y = stack(s[i+1 : i+T+1]) for ix = randint(len(s) − T, (B,)).
void draw_text(generator& gen, const std::vector<std::int64_t>& split, std::size_t length, std::size_t batch,
               std::vector<std::int64_t>& x, std::vector<std::int64_t>& y);

}  // namespace attention
