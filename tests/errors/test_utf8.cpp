#include "errors/utf8.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace attention;

TEST_CASE("UTF-8 becomes code points; what Python refuses is refused with its byte", "[text]") {
  CHECK(code_points("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\r\n", "t") ==
        std::vector<char32_t>{U'a', U'é', U'€', U'😀', U'\r', U'\n'});
  CHECK(code_points("", "t").empty());
  CHECK_THROWS_WITH(code_points("ab\xff", "task.corpus: x.txt"), "task.corpus: x.txt: not valid UTF-8 (byte 2)");
  CHECK_THROWS_WITH(code_points("\xc0\xaf", "t"), "t: not valid UTF-8 (byte 0)");          // overlong '/'
  CHECK_THROWS_WITH(code_points("a\xed\xa0\x80", "t"), "t: not valid UTF-8 (byte 1)");     // a surrogate
  CHECK_THROWS_WITH(code_points("\xf4\x90\x80\x80", "t"), "t: not valid UTF-8 (byte 0)");  // past U+10FFFF
  CHECK_THROWS_WITH(code_points("a\xe2\x82", "t"), "t: not valid UTF-8 (byte 1)");         // cut short
  for (char32_t c : {U'a', U'é', U'€', U'😀'}) CHECK(code_points(utf8_of(c), "t") == std::vector<char32_t>{c});
}
