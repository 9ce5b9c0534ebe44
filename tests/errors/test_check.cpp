// The one error type: ATTENTION_CHECK throws attention::error with its parts
// joined, and nothing when the condition holds.
#include <catch2/catch.hpp>

#include "errors/check.hpp"

using namespace attention;

TEST_CASE("a failed check throws one message, its parts joined as written", "[check]") {
  const auto check = [](int n) { ATTENTION_CHECK(n > 0, "model.embed: ", n, " is not positive; got ", 1.5, 'x'); };
  CHECK_NOTHROW(check(1));
  CHECK_THROWS_AS(check(0), error);
  CHECK_THROWS_WITH(check(-3), "model.embed: -3 is not positive; got 1.5x");
  // an error is a runtime_error: the CLI's and the glue's catch-alls see it
  CHECK_THROWS_AS(check(0), std::runtime_error);
}
