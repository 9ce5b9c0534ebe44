// User text as code points and back. Python's decoder is the measure of
// what is UTF-8: overlong forms, surrogates and values past U+10FFFF are
// refused, naming the byte where the first bad sequence starts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attention {

// Code points of UTF-8 text; throws naming `place` and the byte offset of
// the first invalid sequence (overlong forms, surrogates and values past
// U+10FFFF are invalid, as Python's decoder says).
std::vector<char32_t> code_points(std::string_view utf8, const std::string& place);

// The UTF-8 of one code point.
std::string utf8_of(char32_t c);

}  // namespace attention
