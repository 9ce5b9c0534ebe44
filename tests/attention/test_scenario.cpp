// The scenario as a struct: the labels of a batch element, shared or its
// own, and what makes it cross-attention.
#include <catch2/catch.hpp>

#include "attention/scenario.hpp"

using namespace attention;

TEST_CASE("labels: one list for every batch element, or one each, or none", "[scenario]") {
  scenario s;
  CHECK(s.labels(0).empty());
  s.tokens = {{"a", "b"}};
  CHECK(s.labels(3) == std::vector<std::string>{"a", "b"});  // shared
  s.tokens = {{"a", "b"}, {"c", "d"}};
  CHECK(s.labels(1) == std::vector<std::string>{"c", "d"});
  s.context_tokens = {{"x"}};
  CHECK(s.labels(1, true) == std::vector<std::string>{"x"});
}

TEST_CASE("cross-attention: a context other than x, unless marked self", "[scenario]") {
  scenario s;
  s.attention.x = s.attention.context = "x";
  CHECK_FALSE(s.is_cross());
  s.attention.context = "memory";
  CHECK(s.is_cross());
  s.attention.self = true;  // keys and values drawn apart from the queries, still self-attention
  CHECK_FALSE(s.is_cross());
}
