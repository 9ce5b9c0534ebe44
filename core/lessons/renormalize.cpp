#include "lessons/renormalize.hpp"

#include <algorithm>
#include <cmath>

#include "errors/check.hpp"
#include "lessons/averaging.hpp"
#include "tensor/softmax.hpp"

namespace attention {

renormalize_lesson mask_after_softmax_lesson(const trace& t, std::size_t head, const tensor2& keep) {
  ATTENTION_CHECK(head < t.layer.heads.size(), "renormalize: no head ", head);
  const head_trace& h = t.layer.heads[head];
  const std::size_t B = h.scaled.shape(0), Tq = h.scaled.shape(1), Tkv = h.scaled.shape(2);
  ATTENTION_CHECK(keep.shape(0) == Tq && keep.shape(1) == Tkv, "renormalize: the mask is not ", Tq, " × ", Tkv);
  renormalize_lesson lesson;
  lesson.unmasked = softmax(h.scaled);  // (B, Tq, Tkv): no position hidden yet
  lesson.zeroed = tensor3({B, Tq, Tkv});
  lesson.row_sums = tensor3({B, Tq, 1});
  lesson.renormalized = tensor3({B, Tq, Tkv});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t i = 0; i < Tq; ++i) {
      float row_sum = 0.0f;  // a concrete sum, in order, as masked_simple.sum(dim=1) adds it
      for (std::size_t j = 0; j < Tkv; ++j) {
        lesson.zeroed(b, i, j) = lesson.unmasked(b, i, j) * keep(i, j);
        row_sum += lesson.zeroed(b, i, j);
      }
      ATTENTION_CHECK(row_sum > 0.0f, "renormalize: row ", i, " allows no position");
      lesson.row_sums(b, i, 0) = row_sum;
      for (std::size_t j = 0; j < Tkv; ++j) lesson.renormalized(b, i, j) = lesson.zeroed(b, i, j) / row_sum;
    }
  lesson.agrees = all_close(lesson.renormalized, h.weights);
  for (std::size_t n = 0; n < h.weights.size(); ++n)
    lesson.largest_difference = std::max(lesson.largest_difference, std::fabs(lesson.renormalized.data()[n] - h.weights.data()[n]));
  return lesson;
}

}  // namespace attention
