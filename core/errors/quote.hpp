// User text inside a message: JSON-quoted, shortened, and safe to print on a
// terminal or in a page. Control characters (C0, DEL, C1), line and paragraph
// separators and bidirectional overrides become \u escapes, and bytes that are
// not UTF-8 become \xNN, so one message is always one harmless line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace attention {

// "name" for short text; "first 40 characters…" (N bytes) for long text.
std::string quote(std::string_view text, std::size_t max_characters = 40);

}  // namespace attention
