// libFuzzer over what `attention-cli trace -` runs: read, parse, validate,
// run, serialize. Besides the sanitizers' crashes, leaks, timeouts and
// out-of-memory, it traps when the CLI's contract breaks (contract.hpp).
//
// The core accepts scenarios up to about 2 s of work natively, 8 s or more
// under ASan and UBSan: a slow valid input is not a finding. So a scenario
// whose cost passes 1/16 of any limit (core/cost.hpp) is parsed and checked,
// which every input is, but not run; the rest run within the -timeout.
#include <cstddef>
#include <cstdint>
#include <string>

#include "attention/scenario.hpp"
#include "contract.hpp"
#include "errors/check.hpp"
#include "formats/limits.hpp"
#include "formats/scenario_cost.hpp"
#include "formats/scenario_file.hpp"

namespace {

bool light(const std::string& text) {
  try {
    const attention::scenario_cost c = attention::cost_of(attention::parse_scenario(text));
    namespace limits = attention::limits;
    return c.draws <= limits::random_draws / 16 && c.multiply_adds <= limits::multiply_adds / 16 &&
           c.trace_numbers <= limits::trace_numbers / 16;
  } catch (const attention::error&) {
    return true;  // refused: the CLI refuses it at once, with its line
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  if (light(input)) fuzz::run_cli_checked("trace", input);
  return 0;
}
