// libFuzzer over what `attention-cli train -` and `validate -` run on
// training files: read, parse, check, train, evaluate, serialize, with the
// CLI's contract checked (contract.hpp) besides the sanitizers' reports.
//
// An accepted file may ask for minutes of training (core/training_cost.hpp):
// not a finding. A file whose whole run passes 2^24 multiply-adds is
// validated, which parses and checks it as train would, and not trained.
#include <cstddef>
#include <cstdint>
#include <string>

#include "contract.hpp"
#include "errors/check.hpp"
#include "formats/training_cost.hpp"
#include "formats/training_file.hpp"

namespace {

constexpr std::uint64_t trained_work = std::uint64_t{1} << 24;
constexpr std::uint64_t trained_picoseconds = 50000000000;  // 50 ms natively (training_cost.cpp's estimate)

const char* command_for(const std::string& text) {
  try {
    const attention::training_file file = attention::parse_training(text);
    const attention::training_cost c = attention::cost_of(file.spec);
    return c.total_multiply_adds <= trained_work && c.run_picoseconds <= trained_picoseconds ? "train" : "validate";
  } catch (const attention::error&) {
    return "train";  // refused before any work, with its line
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  fuzz::run_cli_checked(command_for(input), input);
  return 0;
}
