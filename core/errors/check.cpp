#include "errors/check.hpp"

namespace attention::detail {

void throw_error(const std::ostringstream& message) { throw error(message.str()); }

}  // namespace attention::detail
