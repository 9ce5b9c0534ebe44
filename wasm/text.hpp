// JS strings reach the core as UTF-8 only through here. Embind's own
// std::string conversion (Emscripten 3.1.6's stringToUTF8) takes any
// surrogate for a lead and glues it to the next code unit, so "a\uD800b"
// would reach the core as one made-up character. Text crosses as UTF-16
// (std::u16string: the code units as JS holds them) and a lone surrogate is
// refused here, naming the parameter and the character.
#pragma once

#include <cstdio>
#include <string>

#include "errors/check.hpp"
#include "errors/utf8.hpp"

namespace glue {

// one code point's UTF-8, as the core writes it (training/text.hpp)
inline void append_utf8(std::string& out, char32_t c) { out += attention::utf8_of(c); }

// The UTF-8 of a JS string with each lone surrogate shown as U+FFFD (for
// names that are only looked up, never computed on).
[[gnu::noinline]] inline std::string utf8_replacing(const std::u16string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char16_t u = text[i];
    const bool lead = u >= 0xD800 && u <= 0xDBFF, trail = u >= 0xDC00 && u <= 0xDFFF;
    if (lead && i + 1 < text.size() && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
      append_utf8(out, 0x10000 + ((static_cast<char32_t>(u) - 0xD800) << 10) + (text[i + 1] - 0xDC00));
      ++i;
    } else {
      append_utf8(out, lead || trail ? 0xFFFD : u);
    }
  }
  return out;
}

// The UTF-8 of a JS string, or attention::error "name: not valid Unicode: a
// lone surrogate U+D800 at character 5 (counted from 0, in UTF-16 code units)".
[[gnu::noinline]] inline std::string utf8_of(const std::u16string& text, const char* name) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char16_t u = text[i];
    char32_t c = u;
    if (u >= 0xD800 && u <= 0xDFFF) {
      const bool paired = u <= 0xDBFF && i + 1 < text.size() && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF;
      if (!paired) {
        char code[8];
        std::snprintf(code, sizeof code, "%04X", static_cast<unsigned>(u));
        ATTENTION_CHECK(false, name, ": not valid Unicode: a lone surrogate U+", code, " at character ", i,
                        " (UTF-16 code units, from 0)");
      }
      c = 0x10000 + ((static_cast<char32_t>(u) - 0xD800) << 10) + (text[i + 1] - 0xDC00);
      ++i;
    }
    append_utf8(out, c);
  }
  return out;
}

}  // namespace glue
