// A head's scores: its weight on the previous-token cells and on the
// induction cells of a sequence, row by row, checked on attention built by
// hand and on the induction preset, whose second layer becomes an induction head.
#include <catch2/catch.hpp>

#include "support.hpp"
#include "transformer/head_scores.hpp"
#include "training/training.hpp"

using namespace attention;

TEST_CASE("the patterns of a sequence: the token before, and the token after an earlier copy", "[head-scores]") {
  // 5 2 1 5 2 1 7 2: 5, 2 and 1 repeat with period 3, and 2 again at 7 after
  // its copies at 1 and 4: the tokens after both (2 and 5) are as good a guess
  const attention_patterns p = patterns_of({5, 2, 1, 5, 2, 1, 7, 2});
  CHECK(p.previous == cell_list{{1, 0}, {2, 1}, {3, 2}, {4, 3}, {5, 4}, {6, 5}, {7, 6}});
  CHECK(p.induction == cell_list{{3, 1}, {4, 2}, {5, 3}, {7, 2}, {7, 5}});
  // a copy right before points at the position itself: not an induction cell
  CHECK(patterns_of({4, 4}).induction.empty());
  CHECK(patterns_of({4, 4, 4}).induction == cell_list{{2, 1}});
  CHECK(patterns_of({4, 9, 4}).induction == cell_list{{2, 1}});
  CHECK(patterns_of({3}).previous.empty());
}

TEST_CASE("a head's score is its weight on the pattern's cells, row by row, averaged", "[head-scores]") {
  const std::vector<std::int64_t> tokens{5, 2, 1, 5, 2, 1};
  const std::size_t T = tokens.size();
  tensor attention = tensor::from_shape({2, 1, T, T});
  attention.fill(0);
  for (std::size_t i = 0; i < T; ++i) {
    attention(0, 0, i, i == 0 ? 0 : i - 1) = 1;               // layer 0: exactly previous-token
    for (std::size_t j = 0; j <= i; ++j) attention(1, 0, i, j) = 1.0f / static_cast<float>(i + 1);  // layer 1: uniform over the past
  }
  const attention_patterns p = patterns_of(tokens);
  const std::vector<head_score> scores = head_scores(attention, p);
  REQUIRE(scores.size() == 2);
  CHECK(scores[0].previous == Approx(1));
  CHECK(*scores[0].induction == Approx(0));  // (3,1), (4,2), (5,3): none is i − 1
  // uniform: the mean of 1/(i + 1) over the pattern's rows
  CHECK(scores[1].previous == Approx((1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6) / 5));
  CHECK(*scores[1].induction == Approx((1.0 / 4 + 1.0 / 5 + 1.0 / 6) / 3));
  // an induction head that splits its weight between two earlier copies scores 1
  const std::vector<std::int64_t> twice{5, 2, 5, 2, 5};  // at 4: copies at 0 and 2, so (4, 1) and (4, 3)
  const attention_patterns q = patterns_of(twice);
  CHECK(q.induction == cell_list{{2, 1}, {3, 2}, {4, 1}, {4, 3}});
  tensor split = tensor::from_shape({1, 1, 5, 5});
  split.fill(0);
  split(0, 0, 0, 0) = split(0, 0, 1, 1) = split(0, 0, 2, 1) = split(0, 0, 3, 2) = 1;
  split(0, 0, 4, 1) = split(0, 0, 4, 3) = 0.5f;
  CHECK(*head_scores(split, q)[0].induction == Approx(1));
  split(0, 0, 3, 2) = 0;
  split(0, 0, 3, 3) = 1;  // row 3 attends to itself instead: one row of three misses
  CHECK(*head_scores(split, q)[0].induction == Approx(2.0 / 3));
  CHECK_FALSE(head_scores(attention, patterns_of({1, 2, 3, 4, 5, 6}))[0].induction.has_value());  // nothing repeats
  CHECK_THROWS_WITH(head_scores(attention, patterns_of(std::vector<std::int64_t>(9, 1))), "head_scores: a pattern's cell is outside the sequence");
}

TEST_CASE("trained on induction, layer 1 becomes an induction head, layer 0 leans on the token before", "[head-scores]") {
  const training_file file = test_support::training_preset("induction");
  training_run run(file.spec);
  const evaluation before = run.evaluate({0, true});
  REQUIRE(before.scores.size() == 2);
  REQUIRE(before.patterns.has_value());
  CHECK(before.patterns->previous.size() == 15);
  CHECK_FALSE(before.patterns->induction.empty());
  for (int k = 0; k < 600; ++k) run.step();
  const evaluation after = run.evaluate({0, true});
  INFO("layer 0 previous " << after.scores[0].previous << ", layer 1 induction " << *after.scores[1].induction);
  // measured over ten seeds: layer 1's induction score ends at 0.92 to 0.99,
  // layer 0 puts 0.37 to 0.48 of its weight on the token before
  CHECK(*after.scores[1].induction > 0.9);
  CHECK(*after.scores[1].induction > *before.scores[1].induction + 0.5);
  CHECK(after.scores[0].previous > before.scores[0].previous + 0.15);
  CHECK(after.scores[0].previous > after.scores[1].previous);
  // the learner's own sequence gets its own patterns
  const evaluation mine = run.attend({1, 2, 3, 1, 2, 3}, {0, true});
  CHECK(mine.patterns->induction == cell_list{{3, 1}, {4, 2}, {5, 3}});
  CHECK(*mine.scores[1].induction > 0.5);
  CHECK(run.evaluate().scores.empty());  // not asked for: the trace's evaluation
}
