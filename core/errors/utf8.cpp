#include "errors/utf8.hpp"

#include "errors/check.hpp"

namespace attention {

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

}  // namespace attention
