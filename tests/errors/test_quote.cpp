#include <catch2/catch.hpp>

#include "errors/quote.hpp"

using attention::quote;

TEST_CASE("plain text is quoted as JSON would", "[quote]") {
  CHECK(quote("kee") == "\"kee\"");
  CHECK(quote("a \"b\" \\c") == "\"a \\\"b\\\" \\\\c\"");
  CHECK(quote("") == "\"\"");
  CHECK(quote("soleil levé ☀") == "\"soleil levé ☀\"");  // printable Unicode stays readable
}

TEST_CASE("control characters never reach a terminal or make a second line", "[quote]") {
  CHECK(quote("a\nb\rc\td") == "\"a\\nb\\rc\\td\"");
  CHECK(quote("\x1b]0;title\x07\x1b[2J") == "\"\\u001B]0;title\\u0007\\u001B[2J\"");
  CHECK(quote("\x7f") == "\"\\u007F\"");
  CHECK(quote("\xc2\x9b") == "\"\\u009B\"");            // C1 CSI
  CHECK(quote("a\xe2\x80\xa8" "b") == "\"a\\u2028b\"");  // line separator
  CHECK(quote("\xe2\x80\xae" "abc") == "\"\\u202Eabc\"");  // right-to-left override
}

TEST_CASE("bytes that are not UTF-8 are shown as \\x escapes", "[quote]") {
  CHECK(quote("a\xff" "b") == "\"a\\xFFb\"");
  CHECK(quote("\xc3") == "\"\\xC3\"");                 // truncated sequence
  CHECK(quote("\xc0\xaf") == "\"\\xC0\\xAF\"");        // overlong '/'
  CHECK(quote("\xed\xa0\x80") == "\"\\xED\\xA0\\x80\"");  // a surrogate
}

TEST_CASE("long text is shortened, with its size", "[quote]") {
  const std::string long_text(8u << 20, 'a');
  const std::string q = quote(long_text);
  CHECK(q == "\"" + std::string(40, 'a') + "…\" (8388608 bytes)");
  CHECK(quote("abcdef", 3) == "\"abc…\" (6 bytes)");
  CHECK(quote("ééé", 2) == "\"éé…\" (6 bytes)");  // counts characters, never splits one
}
