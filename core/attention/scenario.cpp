#include "attention/scenario.hpp"

namespace attention {

const std::vector<std::string>& scenario::labels(std::size_t b, bool context) const {
  static const std::vector<std::string> none;
  const auto& lists = context ? context_tokens : tokens;
  if (lists.empty()) return none;
  return lists.size() == 1 ? lists[0] : lists.at(b);
}

}  // namespace attention
