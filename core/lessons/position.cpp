#include "lessons/position.hpp"

#include <algorithm>
#include <cmath>

#include "attention/run.hpp"
#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "lessons/averaging.hpp"

namespace attention {
namespace {

float largest_difference(const tensor3& a, const tensor3& b) {
  float largest = 0;
  for (std::size_t n = 0; n < a.size(); ++n) largest = std::max(largest, std::fabs(a.data()[n] - b.data()[n]));
  return largest;
}

}  // namespace

position_lesson rotary_offset_lesson(const scenario& s, std::size_t head, std::uint64_t offset_a,
                                     std::uint64_t offset_b) {
  ATTENTION_CHECK(s.attention.options.rotary.has_value(), "position lesson: the scenario has no rotary positions");
  ATTENTION_CHECK(head < s.attention.heads.size(), "position lesson: no head ", head);
  ATTENTION_CHECK(offset_a <= limits::rotary_offset && offset_b <= limits::rotary_offset,
                  "position lesson: offsets run from 0 to ", limits::rotary_offset);
  position_lesson lesson;
  lesson.offset_a = offset_a;
  lesson.offset_b = offset_b;
  // the same scenario, its rotation started at another position: nothing else changes
  auto run_at = [&](std::uint64_t offset, tensor3& rotated, tensor3& scores) {
    scenario moved = s;
    moved.attention.options.rotary->offset = offset;
    trace t = run(moved);
    rotated = std::move(*t.layer.heads[head].q_rotated);
    scores = std::move(t.layer.heads[head].scores);
  };
  run_at(offset_a, lesson.q_rotated_a, lesson.scores_a);
  run_at(offset_b, lesson.q_rotated_b, lesson.scores_b);
  lesson.largest_rotated_difference = largest_difference(lesson.q_rotated_a, lesson.q_rotated_b);
  lesson.largest_score_difference = largest_difference(lesson.scores_a, lesson.scores_b);
  lesson.agrees = all_close(lesson.scores_b, lesson.scores_a, 1e-5f, 1e-6f);
  for (float v : lesson.scores_a) lesson.largest_score = std::max(lesson.largest_score, std::fabs(v));
  return lesson;
}

}  // namespace attention
