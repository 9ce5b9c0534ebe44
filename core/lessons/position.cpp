#include "lessons/position.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors/check.hpp"
#include "lessons/averaging.hpp"

namespace attention {

step_comparison compare_step(const trace& a, const trace& b, std::size_t head, std::string_view step) {
  const tensor3* x = head < a.layer.heads.size() ? a.layer.heads[head].step(step) : nullptr;
  const tensor3* y = head < b.layer.heads.size() ? b.layer.heads[head].step(step) : nullptr;
  ATTENTION_CHECK(x && y, std::string("compare: no step ") + std::string(step) + " in head " + std::to_string(head));
  ATTENTION_CHECK(x->shape() == y->shape(), std::string("compare: the two ") + std::string(step) + " differ in shape");
  step_comparison c;
  for (std::size_t n = 0; n < x->size(); ++n) {
    c.largest_difference = std::max(c.largest_difference, std::fabs(x->data()[n] - y->data()[n]));
    c.largest_value = std::max(c.largest_value, std::fabs(x->data()[n]));
  }
  c.agrees = all_close(*y, *x, 1e-5f, 1e-6f);
  return c;
}

}  // namespace attention
