#include "errors/quote.hpp"

#include <cstdint>
#include <cstdio>

namespace attention {
namespace {

// Length of the UTF-8 sequence starting at text[i] and its code point, or 0
// when the bytes there are not well-formed UTF-8 (overlong, surrogate, > U+10FFFF).
std::size_t decode(std::string_view text, std::size_t i, std::uint32_t& code) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  std::uint32_t min = 0;
  if (lead < 0x80) { code = lead; return 1; }
  if ((lead & 0xE0) == 0xC0) { length = 2; code = lead & 0x1F; min = 0x80; }
  else if ((lead & 0xF0) == 0xE0) { length = 3; code = lead & 0x0F; min = 0x800; }
  else if ((lead & 0xF8) == 0xF0) { length = 4; code = lead & 0x07; min = 0x10000; }
  else return 0;
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

// Characters that move the cursor, end a line or reorder text where shown.
bool must_escape(std::uint32_t code) {
  return code < 0x20 || (code >= 0x7F && code <= 0x9F) || code == 0x2028 || code == 0x2029 ||
         (code >= 0x200E && code <= 0x200F) || (code >= 0x202A && code <= 0x202E) ||
         (code >= 0x2066 && code <= 0x2069) || code == 0xFEFF;
}

void append_escape(std::string& out, const char* format, unsigned value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, format, value);
  out += buffer;
}

}  // namespace

std::string quote(std::string_view text, std::size_t max_characters) {
  std::string out = "\"";
  std::size_t i = 0, shown = 0;
  for (; i < text.size() && shown < max_characters; ++shown) {
    std::uint32_t code = 0;
    const std::size_t length = decode(text, i, code);
    if (length == 0) {
      append_escape(out, "\\x%02X", static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    if (code == '"') out += "\\\"";
    else if (code == '\\') out += "\\\\";
    else if (code == '\n') out += "\\n";
    else if (code == '\r') out += "\\r";
    else if (code == '\t') out += "\\t";
    else if (must_escape(code)) append_escape(out, "\\u%04X", code);
    else out.append(text.substr(i, length));
    i += length;
  }
  out += '"';
  if (i < text.size()) {
    out.insert(out.size() - 1, "…");
    out += " (" + std::to_string(text.size()) + " bytes)";
  }
  return out;
}

}  // namespace attention
